import { redirect } from 'next/navigation';
import { requireStaff } from '@/lib/console/session';

export default async function ConsoleHome() {
  await requireStaff();
  redirect('/webhooks');
}
