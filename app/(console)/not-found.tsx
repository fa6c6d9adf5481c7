// What a console page shows when notFound() is called (an unknown webhook, message, receiver,
// receipt), inside the console's shell, answering HTTP 404. not-found files get no props, and this
// one is rendered ahead of time for every console page, so it reads nothing on the server: the
// panel reads the address in the browser and says what was missing there.
import type { Metadata } from 'next';
import { NotFoundPanel } from '@/components/console/not-found-panel';

export const metadata: Metadata = { title: 'Not found' };

export default function ConsoleNotFound() {
  return <NotFoundPanel />;
}
