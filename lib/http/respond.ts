import { NextResponse, type NextRequest } from 'next/server';
import { ApiError, problemBody, toProblem } from './errors';
import { describeForLog } from './log-error';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { assertStorable } from './storable-text';
import { traceIdForLog } from '@/lib/telemetry/spans';

export { REQUEST_ID_HEADER, requestIdOf };

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): NextResponse {
  return NextResponse.json(body, { status: init.status ?? 200, headers: init.headers });
}

/** A problem body (lib/http/errors.ts `problemBody`, perhaps with more members) as the response. */
export function problemResponse(status: number, body: object, headers: Record<string, string> = {}): NextResponse {
  return new NextResponse(JSON.stringify(body), { status, headers: { 'content-type': 'application/problem+json', ...headers } });
}

export function problem(status: number, detail: string, headers: Record<string, string> = {}): NextResponse {
  return problemResponse(status, problemBody(status, detail), headers);
}

export function errorResponse(err: unknown, requestId: string): NextResponse {
  const { status, body, headers } = toProblem(err);
  // An unavailable store is logged once per outage (lib/db/store-availability.ts), not per request.
  const outage = status === 503 && !(err instanceof ApiError);
  if (status >= 500 && !outage) console.error(`[${requestId}]${traceIdForLog()} ${describeForLog(err)}`);
  else if (!outage && !(err instanceof ApiError)) console.warn(`[${requestId}]${traceIdForLog()} refused with ${status}: ${describeForLog(err)}`);
  const res = problemResponse(status, body, headers);
  res.headers.set(REQUEST_ID_HEADER, requestId);
  return res;
}

export type TRouteContext<P> = { params: Promise<P> };
export type TRequestInfo<P> = { req: NextRequest; params: P; requestId: string };

/**
 * The base wrapper of every API route: a request id on every response, errors as problem details.
 * Kind-specific wrappers (bearer token, API key, staff session) build on it.
 */
export function route<P = Record<string, string>>(handler: (info: TRequestInfo<P>) => Promise<Response>) {
  return async (req: NextRequest, ctx: TRouteContext<P>): Promise<Response> => {
    const requestId = requestIdOf(req);
    try {
      const params = (await ctx?.params) ?? ({} as P);
      assertStorable(params, 'path');
      const res = await handler({ req, params, requestId });
      res.headers.set(REQUEST_ID_HEADER, requestId);
      return res;
    } catch (err) {
      return errorResponse(err, requestId);
    }
  };
}

const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type TMethod = (typeof ALL_METHODS)[number];
type THandler = (req: NextRequest) => Promise<Response>;

/**
 * Handlers for the methods a route does not serve — 405 with `Allow`, as problem details — and an
 * OPTIONS that names the same methods: `export const { PUT, DELETE, OPTIONS } = otherMethods(['GET', 'POST'])`.
 */
export function otherMethods(allowed: TMethod[]): Record<TMethod | 'OPTIONS', THandler> {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  const notAllowed: THandler = async (req) =>
    errorResponse(
      new ApiError('method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(' or ')}.`, { headers: { allow } }),
      requestIdOf(req),
    );
  const options: THandler = async (req) => new NextResponse(null, { status: 204, headers: { allow, [REQUEST_ID_HEADER]: requestIdOf(req) } });
  return { ...(Object.fromEntries(ALL_METHODS.map((m) => [m, notAllowed])) as Record<TMethod, THandler>), OPTIONS: options };
}
