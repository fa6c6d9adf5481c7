// Single sign-on, step 2: the identity provider's redirect back (code, state, iss) → 303 to where the
// person was going, signed in, or to the login page with one sentence (lib/console/staff/oidc.ts).
import { finishSsoSignIn } from '@/lib/console/staff/oidc';
import { seeOther } from '@/lib/console/staff/see-other';
import { otherMethods, route } from '@/lib/http/respond';
import { sourceAddress } from '@/lib/http/source-address';

export const dynamic = 'force-dynamic';

export const GET = route(async ({ req }) => seeOther(await finishSsoSignIn(req.nextUrl, sourceAddress(req.headers.get('x-forwarded-for')))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
