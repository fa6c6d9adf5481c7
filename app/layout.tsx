import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getStaff } from '@/lib/console/staff/session';
import { themeClass, type TTheme } from '@/lib/console/staff/theme';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Giving Connect Console', template: '%s · Giving Connect Console' },
  description: 'Webhook receiver and delivery monitoring for the Nonprofit Giving Connect API.',
};

/** The signed-in staff member's theme; the donors' pages (and anyone signed out) follow the system. */
async function pageTheme(): Promise<TTheme> {
  const path = (await headers()).get('x-console-path') ?? '';
  if (path.startsWith('/connect/')) return 'system';
  return (await getStaff())?.theme ?? 'system';
}

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The class is rendered by the server, so the first paint is in the chosen theme (no flash).
  return (
    <html lang="en" className={themeClass(await pageTheme())}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
