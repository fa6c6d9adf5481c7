// Console: sign in with JSON {email, password} (for scripts and tests), see who is signed in, set
// one's own preferences (PATCH {theme}), sign out.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods, route } from '@/lib/http/respond';
import { attemptLogin } from '@/lib/console/staff/login';
import { sourceAddress } from '@/lib/http/source-address';
import { endSession, startSession, WWW_AUTHENTICATE } from '@/lib/console/staff/session';
import { withStaff } from '@/lib/console/staff/with-staff';
import { setUserTheme, ZTheme } from '@/lib/console/staff/theme';

export const dynamic = 'force-dynamic';

const ZLogin = z.object({ email: z.string().max(320), password: z.string().max(1024) });

export const POST = route(async ({ req }) => {
  const body = await readJson(req, ZLogin);
  const result = await attemptLogin({ ...body, source: sourceAddress(req.headers.get('x-forwarded-for')) });
  if (!result.ok) {
    if (result.status === 429) throw new ApiError('rate_limited', result.error, { headers: { 'retry-after': String(result.retryAfterSeconds ?? 60) } });
    if (result.status === 400) throw new ApiError('bad_request', result.error);
    if (result.status === 403) throw new ApiError('forbidden', result.error);
    throw new ApiError('unauthorized', result.error, { headers: { 'www-authenticate': WWW_AUTHENTICATE } });
  }
  await startSession(result.userId);
  // mustChangePassword: a one-time password; every other route answers 403 until POST /api/session/password.
  return json({ userId: result.userId, email: result.email, environment: 'sandbox', mustChangePassword: result.mustChangePassword });
});

export const GET = withStaff({ ownData: true, beforePasswordChange: true }, async ({ staff }) => json(staff));

const ZPreferences = z.strictObject({ theme: ZTheme });

/** The signed-in staff member's own preferences: {theme: system | light | dark}. */
export const PATCH = withStaff({ ownData: true }, async ({ req, staff }) => {
  const { theme } = await readJson(req, ZPreferences);
  await setUserTheme(staff.userId, theme);
  return json({ ...staff, theme });
});

export const DELETE = route(async () => {
  await endSession();
  return new Response(null, { status: 204 });
});

export const { PUT, OPTIONS } = otherMethods(['GET', 'POST', 'PATCH', 'DELETE']);
