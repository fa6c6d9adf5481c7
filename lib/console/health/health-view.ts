import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';
import { loadBackupStatus } from './backup-status';
import type { THealthWindow } from './health-types';
import { loadHealthHome } from './load-health-home';

// The health home's view: every webhook of the environment's account with its health over the
// window (an API failure as an inline error) and the embedded store's scheduled backups. A viewer
// gets it masked, as GET /api/webhook-health answers it.

export const loadHealthView = staffView(async ({ staff, api }, window: THealthWindow) => {
  const [home, backup] = await Promise.all([loadOrError(() => loadHealthHome(staff.environment, api, window)), loadBackupStatus()]);
  return { home, backup };
});
