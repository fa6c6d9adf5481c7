import 'server-only';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { users } from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';
import { route, type TRequestInfo } from '@/lib/http/respond';
import { authenticateToken } from './personal-tokens';
import { forbiddenMessage, hasRole, type TRole } from './roles';
import { getStaff, MUST_CHANGE_PASSWORD, WWW_AUTHENTICATE, type TStaff } from './session';

/** Null while the caller may go on reading; else why not (for a stream that outlives its request). */
export type TStillAllowed = () => Promise<{ status: number; detail: string } | null>;
type THandler<P> = (info: TRequestInfo<P> & { staff: TStaff; stillAllowed: TStillAllowed }) => Promise<Response>;

/**
 * The wrapper of the one console route a personal access token opens (the receipt stream): a request
 * with `Authorization: Bearer gcc_pat_…` is its token's owner (personal-tokens.ts), one without it
 * the staff session (as withStaff); then the role. Any other Authorization header is a 401. Every
 * other console route ignores the header, so a token works nowhere else. The handler also gets
 * `stillAllowed`, re-checking the token (or the user) later without the request.
 */
export function withStaffOrToken<P = Record<string, string>>(options: { role: TRole }, handler: THandler<P>) {
  return route<P>(async (info) => {
    const authorization = info.req.headers.get('authorization');
    let staff: TStaff;
    let stillAllowed: TStillAllowed;
    if (authorization !== null) {
      const bearer = /^Bearer +(\S+) *$/i.exec(authorization);
      if (!bearer) {
        throw new ApiError('unauthorized', 'Authorization: send "Bearer <personal access token>", or no Authorization header and the console session.', {
          headers: { 'www-authenticate': 'Bearer realm="giving-connect-console"' },
        });
      }
      const token = bearer[1];
      staff = (await authenticateToken(token, { touch: true })).staff;
      stillAllowed = () => authenticateToken(token).then(() => null, refusal);
    } else {
      const found = await getStaff();
      if (!found)
        throw new ApiError('unauthorized', 'Sign in to the console first, or send a personal access token (Authorization: Bearer …).', {
          headers: { 'www-authenticate': `${WWW_AUTHENTICATE}, Bearer realm="giving-connect-console"` },
        });
      if (found.mustChangePassword) throw new ApiError('forbidden', MUST_CHANGE_PASSWORD);
      staff = found;
      stillAllowed = () => userStillAllowed(found.userId, options.role).catch(() => null);
    }
    if (!hasRole(staff.role, options.role)) throw new ApiError('forbidden', forbiddenMessage(staff.role, options.role));
    return handler({ ...info, staff, stillAllowed });
  });
}

function refusal(err: unknown): { status: number; detail: string } | null {
  return err instanceof ApiError ? { status: err.status, detail: err.message } : null; // a store that is away ends nothing
}

async function userStillAllowed(userId: string, min: TRole): Promise<{ status: number; detail: string } | null> {
  const db = await getDb();
  const [user] = await db
    .select({ role: users.role, disabledAt: users.disabledAt, mustChange: users.mustChangePassword })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user || user.disabledAt) return { status: 401, detail: 'Your account was deactivated.' };
  if (user.mustChange) return { status: 403, detail: MUST_CHANGE_PASSWORD };
  return hasRole(user.role, min) ? null : { status: 403, detail: forbiddenMessage(user.role, min) };
}
