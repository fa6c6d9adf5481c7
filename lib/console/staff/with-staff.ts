import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { route, type TRequestInfo } from '@/lib/http/respond';
import { ConnectApiError } from '../connect-api/errors';
import { getStaff, WWW_AUTHENTICATE, type TStaff } from './session';
import { upstreamProblem } from '../upstream-problem';

/**
 * The one wrapper of the console's JSON routes: a staff session or a 401 (with its challenge), and
 * the API's failures as problem responses (lib/console/upstream-problem.ts: its 404 stays a 404,
 * most else is a 502 naming the upstream status and request id), so a route holds only its happy
 * path. Everything else goes through route(): ApiError → problem+json, the unknown → a bare 500.
 */
export function withStaff<P = Record<string, string>>(handler: (info: TRequestInfo<P> & { staff: TStaff }) => Promise<Response>) {
  return route<P>(async (info) => {
    const staff = await getStaff();
    if (!staff) throw new ApiError('unauthorized', 'Sign in to the console first.', { headers: { 'www-authenticate': WWW_AUTHENTICATE } });
    try {
      return await handler({ ...info, staff });
    } catch (err) {
      if (err instanceof ConnectApiError) return upstreamProblem(err);
      throw err;
    }
  });
}
