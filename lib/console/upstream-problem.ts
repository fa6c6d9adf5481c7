import { NextResponse } from 'next/server';
import type { ConnectApiError } from '@/lib/console/connect-api';

/**
 * An upstream API error as this route's problem detail: the API's 404 stays a 404, everything else is a
 * 502 (bad gateway) that carries the upstream status and request id so support can quote them.
 */
export function upstreamProblem(err: ConnectApiError): NextResponse {
  const status = err.status === 404 ? 404 : err.status === 401 || err.status === 403 ? 502 : err.status >= 400 && err.status < 500 ? err.status : 502;
  return new NextResponse(
    JSON.stringify({
      type: 'about:blank',
      title: status === 502 ? 'Bad Gateway' : 'Upstream error',
      status,
      detail: err.problem?.detail || err.problem?.title || err.message,
      upstreamStatus: err.status,
      upstreamRequestId: err.requestId,
    }),
    { status, headers: { 'content-type': 'application/problem+json' } },
  );
}
