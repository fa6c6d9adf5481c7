import type { ConnectApiError } from '@/lib/console/connect-api';
import { problemBody } from '@/lib/http/errors';
import { problemResponse } from '@/lib/http/respond';

function statusFor(upstream: number): number {
  if (upstream === 404) return 404;
  if (upstream === 401 || upstream === 403) return 502;
  if (upstream >= 400 && upstream < 500) return upstream;
  return 502;
}

/**
 * An upstream API error as this route's problem detail, with the upstream status and request id so
 * support can quote them: the API's 404 stays a 404; its 401/403 is a 502 (bad gateway: the
 * console's own credentials were refused, not the caller's); another 4xx keeps its status (the
 * request itself was wrong); anything else is a 502.
 */
export function upstreamProblem(err: ConnectApiError): Response {
  const status = statusFor(err.status);
  const detail = err.problem?.detail || err.problem?.title || err.message;
  const body = {
    ...problemBody(status, detail),
    ...(status === 502 ? {} : { title: 'Upstream error' }),
    upstreamStatus: err.status,
    upstreamRequestId: err.requestId,
  };
  return problemResponse(status, body);
}
