import type { ConnectApiError } from '@/lib/console/connect-api';
import { problemBody } from '@/lib/http/errors';
import { problemResponse } from '@/lib/http/respond';

/**
 * An upstream API error as this route's problem detail: the API's 404 stays a 404, everything else is a
 * 502 (bad gateway) that carries the upstream status and request id so support can quote them.
 */
export function upstreamProblem(err: ConnectApiError): Response {
  const status = err.status === 404 ? 404 : err.status === 401 || err.status === 403 ? 502 : err.status >= 400 && err.status < 500 ? err.status : 502;
  const detail = err.problem?.detail || err.problem?.title || err.message;
  const body = { ...problemBody(status, detail), ...(status === 502 ? {} : { title: 'Upstream error' }), upstreamStatus: err.status, upstreamRequestId: err.requestId };
  return problemResponse(status, body);
}
