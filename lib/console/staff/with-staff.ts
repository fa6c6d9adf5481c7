import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { route, type TRequestInfo } from '@/lib/http/respond';
import { ConnectApiError } from '../connect-api/errors';
import { getStaff, MUST_CHANGE_PASSWORD, WWW_AUTHENTICATE, type TSignedIn, type TStaff } from './session';
import { upstreamProblem } from '../upstream-problem';
import { forbiddenMessage, hasRole, type TRole } from './roles';
import { redactForViewer } from './viewer-redaction';
import { audited, type TNoteAudit } from '../audit/audited';
import type { TAuditAction } from '../audit/audit-actions';
import { auditResultOfStatus } from '../audit/record-audit';
import { releaseWhenDone, takeReportSlot } from './report-slots';

/**
 * `startReport()`: the request is a heavy report (an export, the reconciliation), called once its
 * input is read (bad input stays a 400): it takes one of the caller's report slots or throws the 429
 * (report-slots.ts); the slot is held until the answer's body is done.
 */
type THandler<P> = (info: TRequestInfo<P> & { staff: TSignedIn; audit: TNoteAudit; startReport: () => void }) => Promise<Response>;
export type TStaffOptions = {
  /** The least role the route needs; without it any signed-in staff member (a viewer) may call it. */
  role?: TRole;
  /** Set only by a route that returns the caller's own data (GET /api/session): no viewer masking. */
  ownData?: boolean;
  /** Set only by the routes a staff member who must change a one-time password may call (GET /api/session, its password change). */
  beforePasswordChange?: boolean;
  /**
   * The route is a staff action the audit log records: one row once the answer is known — 'ok', or
   * the failure's code (a thrown error, or an answer of 400 and above) — with the target and detail
   * the handler noted through `audit({ target, detail })`.
   */
  audit?: TAuditAction;
};

/**
 * The one wrapper of the console's JSON routes: a staff session or a 401 (with its challenge), a
 * role that reaches `role` or a 403 naming both, and the API's failures as problem responses
 * (lib/console/upstream-problem.ts: its 404 stays a 404, most else is a 502 naming the upstream
 * status and request id), so a route holds only its happy path. A viewer's JSON is masked here
 * (viewer-redaction.ts): fingerprints for secrets, `a•••@example.org` for donor details.
 * With `audit`, the ok/error pair of the audit log is written here (lib/console/audit/audited.ts).
 * `withStaff(handler)` is `withStaff({ role: 'viewer' }, handler)`.
 * Everything else goes through route(): ApiError → problem+json, the unknown → a bare 500.
 */
export function withStaff<P = Record<string, string>>(handler: THandler<P>): ReturnType<typeof route<P>>;
export function withStaff<P = Record<string, string>>(options: TStaffOptions, handler: THandler<P>): ReturnType<typeof route<P>>;
export function withStaff<P = Record<string, string>>(a: TStaffOptions | THandler<P>, b?: THandler<P>) {
  const options: TStaffOptions = typeof a === 'function' ? {} : a;
  const handler = (typeof a === 'function' ? a : b) as THandler<P>;
  const min = options.role ?? 'viewer';
  return route<P>(async (info) => {
    const staff = await getStaff();
    if (!staff) throw new ApiError('unauthorized', 'Sign in to the console first.', { headers: { 'www-authenticate': WWW_AUTHENTICATE } });
    if (staff.mustChangePassword && !options.beforePasswordChange) throw new ApiError('forbidden', MUST_CHANGE_PASSWORD);
    if (!hasRole(staff.role, min)) throw new ApiError('forbidden', forbiddenMessage(staff.role, min));
    const action = options.audit;
    const slot: { release?: () => void } = {};
    const startReport = () => void (slot.release ??= takeReportSlot(staff.userId));
    const run = (audit: TNoteAudit) => handler({ ...info, staff, audit, startReport });
    let res: Response;
    try {
      res = action ? await audited(staff, action, {}, run, (r) => auditResultOfStatus(r.status)) : await run(() => {});
    } catch (err) {
      slot.release?.();
      if (err instanceof ConnectApiError) return upstreamProblem(err);
      throw err;
    }
    if (slot.release) res = releaseWhenDone(res, slot.release, info.req.signal);
    return staff.role === 'viewer' && !options.ownData ? forViewer(res) : res;
  });
}

/** Throws the 403 of withStaff when `staff` is below `min` (for a check that depends on the input, e.g. includeDonor). */
export function assertRole(staff: TStaff, min: TRole): void {
  if (!hasRole(staff.role, min)) throw new ApiError('forbidden', forbiddenMessage(staff.role, min));
}

/** A JSON answer re-written as a viewer may see it; anything else (an export, a stream) as it is. */
async function forViewer(res: Response): Promise<Response> {
  const type = res.headers.get('content-type') ?? '';
  if (!/^application\/(?:problem\+)?json\b/.test(type) || !res.body) return res;
  const body = redactForViewer(JSON.parse(await res.text()));
  const headers = new Headers(res.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(body), { status: res.status, statusText: res.statusText, headers });
}
