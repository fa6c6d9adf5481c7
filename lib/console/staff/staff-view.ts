import 'server-only';
import { connectApi, type ConnectApi } from '../connect-api';
import type { TRole } from './roles';
import { requireRole, type TStaff } from './session';
import { asSeenBy } from './viewer-redaction';

// The wrapper of the console's pages with rules (what withStaff is to its JSON routes): the session
// and the role checked (requireRole), the page's view model loaded by one function in
// lib/console/<domain>/, and that model redacted once for the reader's role (viewer-redaction.ts:
// fingerprints for secrets, `a•••@example.org` for donor details). The page calls the loader and
// renders; it never redacts. A view model is plain data (no Map or class), as redaction copies it.
//
//   export const loadReceiverView = staffView(async ({ staff, api }, id: string) => { … });
//   const { staff, view } = await loadReceiverView(id);

export type TViewContext = { staff: TStaff; api: ConnectApi };

export function staffView<A extends unknown[], V>(loader: (ctx: TViewContext, ...args: A) => Promise<V>, role: TRole = 'viewer') {
  return async (...args: A): Promise<{ staff: TStaff; view: V }> => {
    const staff = await requireRole(role);
    const view = await loader({ staff, api: connectApi(staff.environment) }, ...args);
    return { staff, view: asSeenBy(staff.role, view) };
  };
}
