// Single sign-on, step 1: GET /auth/oidc/start?next=/path → 303 to the identity provider (or to the
// login page saying what is wrong). Public: it is how staff sign in (lib/console/staff/oidc.ts).
import { beginSsoSignIn } from '@/lib/console/staff/oidc';
import { seeOther } from '@/lib/console/staff/see-other';
import { otherMethods, route } from '@/lib/http/respond';
import { sourceAddress } from '@/lib/http/source-address';

export const dynamic = 'force-dynamic';

export const GET = route(async ({ req }) =>
  seeOther(await beginSsoSignIn(req.nextUrl.searchParams.get('next'), sourceAddress(req.headers.get('x-forwarded-for')))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
