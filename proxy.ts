// Gives every request an X-Request-Id (kept from a proxy in front when sane) and echoes it on the
// response (and tells pages their own path), so pages, Next's own 404/405s and API routes alike can
// be traced. Route handlers built on lib/http/respond reuse the same id. With SERVICE_MODE=off the
// embedded service's paths answer 404: this instance is a console for a remote service.
// Nothing it answers may be cached, and console pages may not be framed: lib/http/safety-headers.ts.
// It answers only to the host names the deployment gives, and takes console changes only from the
// console's own origin: lib/http/request-guard.ts.
// Each request gets a fresh nonce for the Content-Security-Policy of the page it may be, set on the
// request too: Next reads the nonce there and puts it on every script it writes.
import { NextResponse, type NextRequest } from 'next/server';
import { env } from '@/lib/env';
import { problemBody } from '@/lib/http/errors';
import { REQUEST_ID_HEADER, requestIdOf } from '@/lib/http/request-id';
import { guardRefusal } from '@/lib/http/request-guard';
import { SERVICE_PATHS, newNonce, safetyHeaders } from '@/lib/http/safety-headers';

export function proxy(req: NextRequest) {
  const id = requestIdOf(req);
  // A Host the deployment does not name (421), a console change sent from another origin (403).
  const refused = guardRefusal({ method: req.method, path: req.nextUrl.pathname, header: (name) => req.headers.get(name) });
  if (refused) {
    return new NextResponse(refused.body, {
      status: refused.status,
      headers: { ...refused.headers, [REQUEST_ID_HEADER]: id, ...safetyHeaders(req.nextUrl.pathname) },
    });
  }
  if (env.SERVICE_MODE === 'off' && SERVICE_PATHS.test(req.nextUrl.pathname)) {
    const body = problemBody(404, 'The embedded Giving Connect service is turned off on this instance (SERVICE_MODE=off).');
    return new NextResponse(JSON.stringify(body), {
      status: 404,
      headers: { 'content-type': 'application/problem+json', [REQUEST_ID_HEADER]: id, ...safetyHeaders(req.nextUrl.pathname) },
    });
  }
  const safety = safetyHeaders(req.nextUrl.pathname, { nonce: newNonce(), dev: env.NODE_ENV === 'development' });
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, id);
  // Only this policy says which nonce Next gives its scripts, never one the client sent.
  headers.delete('content-security-policy-report-only');
  if (safety['content-security-policy']) headers.set('content-security-policy', safety['content-security-policy']);
  else headers.delete('content-security-policy');
  // Lets a server layout that finds no session send the visitor back here after login.
  headers.set('x-console-path', req.nextUrl.pathname + req.nextUrl.search);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, id);
  for (const [name, value] of Object.entries(safety)) res.headers.set(name, value);
  return res;
}

export const config = {
  // The receiver's hot path sets its own id; static assets need none.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|ingest/).*)'],
};
