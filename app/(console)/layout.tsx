// The staff console shell: header with navigation, the API environment and the signed-in user.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { staffView } from '@/lib/console/staff/staff-view';
import { logoutAction } from '@/lib/console/staff/auth-actions';
import { environments } from '@/lib/console/connect-api';
import { env } from '@/lib/env';
import { NavLinks } from '@/components/console/nav-links';
import { EnvironmentSwitcher } from '@/components/console/environment-switcher';
import { EnvironmentBadge } from '@/components/console/badge';
import { QueryProvider } from '@/components/console/providers';
import { RoleProvider } from '@/components/console/role';
import { SearchBox } from '@/components/console/search-box';
import { MenuButton, SiteHeader } from '@/components/console/site-header';
import { MENU_PART } from '@/components/console/menu-part';
import { AlertBanner } from '@/components/console/alert-banner';
import { firingAlerts } from '@/lib/console/alerts/list-alerts';
import { ThemeSwitcher } from '@/components/console/theme-switcher';
import { setThemeAction, switchEnvironmentAction } from './actions';

// Every console page's frame: the session (each page checks its own role too) and the firing alerts.
const loadShell = staffView(async ({ staff }) => firingAlerts(staff.environment));

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { staff, view: firing } = await loadShell();
  const envs = environments().filter((e) => e.configured);
  const current = envs.find((e) => e.name === staff.environment) ?? { name: staff.environment, label: staff.environment, baseUrl: '' };
  return (
    <QueryProvider>
      <RoleProvider role={staff.role}>
        <div className="flex min-h-screen flex-col">
          {/* The first Tab stop: past the header's links and controls to the page itself. */}
          <a
            href="#content"
            className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-sm focus:font-semibold focus:text-indigo-800 focus:shadow-lg"
          >
            Skip to content
          </a>
          <SiteHeader>
            <div className="mx-auto flex min-h-12 max-w-7xl flex-wrap items-center gap-x-2 gap-y-1 px-4 py-1.5 lg:gap-x-4">
              <Link href="/" className="flex shrink-0 items-center gap-2 text-sm font-semibold tracking-tight">
                <span className="grid size-6 place-items-center rounded bg-indigo-500 text-xs font-bold">GC</span>
                <span className="hidden sm:inline">Giving Connect Console</span>
              </Link>
              <MenuButton controls="main-nav session-controls" />
              {/* Below lg the navigation and the session controls are the menu's: rows under the bar while it is open. */}
              <NavLinks id="main-nav" role={staff.role} className={`${MENU_PART} order-last w-full pb-1 lg:order-none lg:w-auto lg:pb-0`} />
              <SearchBox className="min-w-0 flex-1 lg:w-56 lg:flex-none xl:w-72" />
              <div
                id="session-controls"
                className={`${MENU_PART} order-last w-full flex-wrap items-center gap-x-3 gap-y-2 border-t border-white/10 py-2 lg:order-none lg:ml-auto lg:w-auto lg:border-0 lg:py-0`}
              >
                {env.SERVICE_MODE === 'on' ? (
                  // The embedded service's own reference; a console of a remote service has none to show.
                  <a
                    href="/reference"
                    target="_blank"
                    rel="noopener"
                    className="rounded-md px-2 py-1 text-xs font-medium text-slate-300 hover:bg-white/10 hover:text-white"
                  >
                    API reference
                  </a>
                ) : null}
                <div className="flex items-center gap-1.5" data-testid="environment" title={current.baseUrl ? `API: ${current.baseUrl}` : undefined}>
                  <span className="text-xs text-slate-400 lg:hidden xl:inline">Environment</span>
                  {envs.length > 1 ? (
                    <EnvironmentSwitcher
                      current={staff.environment}
                      options={envs.map((e) => ({ name: e.name, label: e.label }))}
                      action={switchEnvironmentAction}
                    />
                  ) : (
                    <EnvironmentBadge name={current.name} label={current.label} />
                  )}
                </div>
                <span className="text-xs text-slate-400 [overflow-wrap:anywhere] lg:hidden xl:inline">
                  <span data-testid="staff-email">{staff.email}</span> · <span data-testid="staff-role">{staff.role}</span>
                </span>
                <ThemeSwitcher current={staff.theme} action={setThemeAction} />
                {staff.hasPassword ? (
                  <Link
                    href="/account/password"
                    className="rounded-md px-2 py-1 text-xs font-medium text-slate-300 hover:bg-white/10 hover:text-white"
                    data-testid="change-password-link"
                  >
                    Password
                  </Link>
                ) : null}
                <form action={logoutAction}>
                  <button type="submit" className="rounded-md px-2 py-1 text-xs font-medium text-slate-300 hover:bg-white/10 hover:text-white">
                    Log out
                  </button>
                </form>
              </div>
            </div>
            {staff.environment === 'production' ? (
              <div className="bg-rose-600 px-4 py-0.5 text-center text-xs font-medium">
                Production: <span className="max-sm:hidden">test events and </span>changes here reach real integrators.
              </div>
            ) : null}
            <AlertBanner initial={{ firing: firing.count, quietFiring: firing.quiet, oldestFiringId: firing.oldestId, oldestFiring: firing.oldest }} />
          </SiteHeader>
          <main id="content" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 focus:outline-none">
            {children}
          </main>
        </div>
      </RoleProvider>
    </QueryProvider>
  );
}
