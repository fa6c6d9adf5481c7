import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { pageSearchParams, type TSearchParams } from '@/lib/http/page-props';
import { connectApi, type ConnectApi } from '../connect-api';
import type { TRole } from './roles';
import { requireRole, type TSignedIn } from './session';
import { asSeenBy } from './viewer-redaction';

// The one way into a console page (what withStaff is to its JSON routes, staffAction to its
// actions): the session and the role checked (requireRole: the login page without a session, the
// 403 page below the role), the page's view model loaded by one function in lib/console/<domain>/,
// and that model redacted once for the reader's role (viewer-redaction.ts: fingerprints for
// secrets, `a•••@example.org` for donor details). The page calls the loader and renders; it never
// redacts. A view model is plain data (no Map or class), as redaction copies it. A page that loads
// nothing a role changes has a trivial loader: `staffView(async () => null, 'operator')`.
//
//   export const loadReceiverView = staffView(async ({ staff, api }, id: string) => { … });
//   const { staff, view } = await loadReceiverView(id);

export type TViewContext = { staff: TSignedIn; api: ConnectApi };

export function staffView<A extends unknown[], V>(loader: (ctx: TViewContext, ...args: A) => Promise<V>, role: TRole = 'viewer') {
  return async (...args: A): Promise<{ staff: TSignedIn; view: V }> => {
    const staff = await requireRole(role);
    const view = await loader({ staff, api: connectApi(staff.environment) }, ...args);
    return { staff, view: asSeenBy(staff.role, view) };
  };
}

export type TQueryPage<Q, V> =
  { staff: TSignedIn; queryError: null; query: Q; view: V } | { staff: TSignedIn; queryError: string; query?: never; view?: never };

/**
 * staffView for a page whose query is strict (it shares its parser with its JSON route, where a bad
 * value is a 400): after the session and the role, `parse` reads the query; one it cannot read loads
 * nothing and comes back as `queryError`, the 400's message, for the page to show in <QueryError>
 * with a way back. The query is the reader's own input, returned as parsed; the view is redacted.
 *
 *   export const loadAuditView = staffQueryView(parseAuditFilters, async (ctx, filters) => listAudit(filters));
 *   const page = await loadAuditView(await searchParams);
 *   if (page.queryError !== null) return <QueryError … message={page.queryError} />;
 */
export function staffQueryView<Q, V>(parse: (sp: URLSearchParams) => Q, loader: (ctx: TViewContext, query: Q) => Promise<V>, role: TRole = 'viewer') {
  return async (params: TSearchParams): Promise<TQueryPage<Q, V>> => {
    const staff = await requireRole(role);
    let query: Q;
    try {
      query = parse(pageSearchParams(params));
    } catch (err) {
      if (err instanceof ApiError) return { staff, queryError: err.message };
      throw err;
    }
    const view = await loader({ staff, api: connectApi(staff.environment) }, query);
    return { staff, queryError: null, query, view: asSeenBy(staff.role, view) };
  };
}
