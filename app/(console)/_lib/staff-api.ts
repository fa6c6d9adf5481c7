import 'server-only';
import { requireRole } from '@/lib/console/staff/session';
import type { TRole } from '@/lib/console/staff/roles';
import { connectApi } from '@/lib/console/connect-api';

/**
 * The signed-in staff member and the API client of their chosen environment. Every page and action
 * starts here, naming the least role it needs (lib/http/route-table.json lists each): below it a
 * page answers 403 (app/forbidden.tsx), without a session it goes to the login page.
 */
export async function staffApi(role: TRole = 'viewer') {
  const staff = await requireRole(role);
  return { staff, api: connectApi(staff.environment) };
}
