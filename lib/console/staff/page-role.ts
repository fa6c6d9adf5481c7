import { routeOf } from '@/lib/http/front-door';
import { isRole, type TRole } from './roles';

// The least role a console page needs, as lib/http/route-table.json gives it (the table
// tests/integration/roles.test.ts holds every page to): what the 403 page names.

/** The least role of the page at `path` (a query is ignored), or null when the table names none. */
export function leastRoleOfPage(path: string): TRole | null {
  const route = routeOf(path.split('?')[0]);
  const role = route?.kind === 'page' ? (route as { role?: unknown }).role : undefined;
  return isRole(role) ? role : null;
}
