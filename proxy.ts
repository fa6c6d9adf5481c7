// Gives every request an X-Request-Id (kept from a proxy in front when sane) and echoes it on the
// response (and tells pages their own path), so pages, Next's own 404/405s and API routes alike can be traced. Route handlers built
// on lib/http/respond reuse the same id.
import { NextResponse, type NextRequest } from 'next/server';
import { REQUEST_ID_HEADER, requestIdOf } from '@/lib/http/request-id';

export function proxy(req: NextRequest) {
  const id = requestIdOf(req);
  const headers = new Headers(req.headers);
  headers.set(REQUEST_ID_HEADER, id);
  // Lets a server layout that finds no session send the visitor back here after login.
  headers.set('x-console-path', req.nextUrl.pathname + req.nextUrl.search);
  const res = NextResponse.next({ request: { headers } });
  res.headers.set(REQUEST_ID_HEADER, id);
  return res;
}

export const config = {
  // The receiver's hot path sets its own id; static assets need none.
  matcher: ['/((?!_next/static|_next/image|favicon.ico|ingest/).*)'],
};
