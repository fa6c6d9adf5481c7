import { redirect } from 'next/navigation';

export default function ConsoleHome() {
  redirect('/webhooks');
}
