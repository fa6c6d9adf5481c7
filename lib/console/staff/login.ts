import 'server-only';
import { dummySecretHash, verifySecret } from '@/lib/crypto/secrets';
import { releaseAttempt, reserveAttempt, type TLimit } from '@/lib/db/fixed-window';
import { loginFailures } from '@/lib/db/schema/console';
import { recordAudit } from '../audit/record-audit';
import { loginOptions } from './oidc-config';
import { findUserByEmail, normalizeEmail, touchLastLogin } from './users';
import { plural } from '@/lib/console/format';

// Checking a staff password, rate-limited in console.login_failures (a fixed window per key, so
// guessing is slow on every instance):
// - per email and source address: 5 — the guesser at one address is stopped quickly, while the
//   owner of the email, signing in from elsewhere, is not locked out by it;
// - per source address: 20 — one address cannot spray many emails;
// - per email: 100 — a backstop that slows a guess spread over many addresses, without making a
//   lockout of the admin cheap (it takes 20 addresses).
// Each attempt takes its place in all three windows before the password is checked (lib/db/fixed-window).

export const LOGIN_WINDOW_MINUTES = 15;
export const MAX_FAILURES_PER_EMAIL_AND_SOURCE = 5;
export const MAX_FAILURES_PER_SOURCE = 20;
export const MAX_FAILURES_PER_EMAIL = 100;

export type TLoginResult =
  | { ok: true; userId: string; email: string; mustChangePassword: boolean }
  | { ok: false; error: string; status: 400 | 401 | 403 | 429; retryAfterSeconds?: number };

const WRONG = 'Wrong email or password.';

function limitsOf(email: string, source: string): { pair: TLimit; source: TLimit; email: TLimit } {
  // No address (not behind scripts/server.mjs): one shared bucket, stricter rather than none.
  const from = source || 'unknown';
  return {
    pair: { key: `email+source:${email}|${from}`, max: MAX_FAILURES_PER_EMAIL_AND_SOURCE },
    source: { key: `source:${from}`, max: MAX_FAILURES_PER_SOURCE },
    email: { key: `email:${email}`, max: MAX_FAILURES_PER_EMAIL },
  };
}

export function tooManyMessage(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Too many attempts, try again in ${plural(minutes, 'minute')}.`;
}

const LOGIN_RESULT = { 400: 'bad_request', 401: 'wrong_password', 403: 'password_off', 429: 'rate_limited' } as const;

/** Checks the credentials and records the attempt, success or failure, in the audit log. */
export async function attemptLogin(input: { email: string; password: string; source: string }): Promise<TLoginResult> {
  const result = await checkLogin(input);
  const actor = result.ok
    ? { userId: result.userId, email: result.email, environment: 'sandbox' }
    : { email: normalizeEmail(input.email ?? '').slice(0, 320) || '(none)' };
  await recordAudit({ actor, action: 'login', result: result.ok ? 'ok' : LOGIN_RESULT[result.status], detail: { method: 'password' }, source: input.source });
  return result;
}

/** Checks the credentials; the same work (one scrypt) whether or not the user exists. */
async function checkLogin(input: { email: string; password: string; source: string }): Promise<TLoginResult> {
  const options = loginOptions();
  // PASSWORD_LOGIN=false: passwords are not checked at all (nor counted), whoever the user is.
  if (!options.password)
    return { ok: false, status: 403, error: `Password sign-in is turned off on this console: sign in with ${options.sso?.label ?? 'SSO'}.` };
  const email = normalizeEmail(input.email ?? '');
  if (!email || !input.password) return { ok: false, status: 400, error: 'Enter your email and password.' };
  if (email.length > 320 || input.password.length > 1024) return { ok: false, status: 401, error: WRONG };
  const limits = limitsOf(email, input.source);
  const wait = await reserveAttempt(loginFailures, [limits.pair, limits.source, limits.email], LOGIN_WINDOW_MINUTES * 60_000);
  if (wait > 0) return { ok: false, status: 429, error: tooManyMessage(wait), retryAfterSeconds: wait };
  const user = await findUserByEmail(email);
  const ok = await verifySecret(input.password, user?.passwordHash ?? (await dummySecretHash()));
  // A user without a password (single sign-on only) or deactivated gets the same answer as a wrong one.
  if (!user || !ok || !user.passwordHash || user.disabledAt) return { ok: false, status: 401, error: WRONG };
  // The attempt was no failure, and this address starts afresh for this email.
  await releaseAttempt(loginFailures, { clear: [limits.pair.key], giveBack: [limits.source.key, limits.email.key] });
  await touchLastLogin(user.id);
  return { ok: true, userId: user.id, email: user.email, mustChangePassword: user.mustChangePassword };
}
