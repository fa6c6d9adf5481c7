import 'server-only';
import { getIronSession, type SessionOptions } from 'iron-session';
import { cookies, headers } from 'next/headers';
import { forbidden, redirect } from 'next/navigation';
import { env } from '@/lib/env';
import { recordAudit } from '../audit/record-audit';
import { ApiError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { environmentConfig, isEnvironmentName, type TEnvironmentName } from '../connect-api/environments';
import { getOrCreateSetting } from '../settings';
import { safeNext } from './safe-next';
import { createSessionRow, deleteOtherSessions, deleteSessionRow, findSessionUser, SESSION_ID, type TSessionUser } from './session-rows';
import { processSingleton } from '@/lib/process-singleton';
import { hasRole, type TRole } from './roles';
import { asTheme, type TTheme } from './theme';

// Staff sessions: a sealed, httpOnly iron-session cookie naming a session row (console.sessions) and
// holding the chosen environment. Every read checks the row: signing out deletes it, so a copied
// or stolen cookie stops working at once; a deleted user's rows go with it. A cookie that does not
// unseal, or names no live row, is simply "not signed in".

export type { TEnvironmentName };
export type TStaff = { userId: string; email: string; role: TRole; environment: TEnvironmentName };
/** The staff member of a session: also whether they have a password and must change it (a one-time one). */
export type TSignedIn = TStaff & { mustChangePassword: boolean; hasPassword: boolean; theme: TTheme };
type TSessionData = { sid?: string; environment?: TEnvironmentName };

export const SESSION_COOKIE = 'gc_console_session';
const SESSION_TTL_SECONDS = 12 * 3600;

const globalForSession = processSingleton('session-secret', (): { sessionSecret?: Promise<string> } => ({}));

/** SESSION_SECRET, or a random secret made once and kept in console.settings (survives restarts, shared by instances). */
export function sessionPassword(): Promise<string> {
  if (env.SESSION_SECRET) return Promise.resolve(env.SESSION_SECRET);
  globalForSession.sessionSecret ??= getOrCreateSetting('session_secret', () => randomString(48)).catch((err) => {
    globalForSession.sessionSecret = undefined;
    throw err;
  });
  return globalForSession.sessionSecret;
}

async function sessionOptions(): Promise<SessionOptions> {
  return {
    cookieName: SESSION_COOKIE,
    password: await sessionPassword(),
    ttl: SESSION_TTL_SECONDS,
    cookieOptions: {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      // Only over https: a production build served on http://localhost must still be able to log in.
      secure: env.NODE_ENV === 'production' && env.CONSOLE_PUBLIC_URL.startsWith('https:'),
    },
  };
}

async function session() {
  return getIronSession<TSessionData>(await cookies(), await sessionOptions());
}

/** The session's user when its row is live, or null (also for any cookie that cannot be read). */
async function sessionUser(s: TSessionData): Promise<TSessionUser | null> {
  if (typeof s.sid !== 'string' || !SESSION_ID.test(s.sid)) return null;
  return findSessionUser(s.sid);
}

/**
 * The signed-in staff member, or null. One who must change a one-time password is returned with
 * `mustChangePassword`: every guard (requireRole under staffView and the staff actions, withStaff, withStaffOrToken) sends them to do that first.
 */
export async function getStaff(): Promise<TSignedIn | null> {
  let s: TSessionData;
  try {
    s = await session();
  } catch {
    return null; // a cookie this app cannot read is no session
  }
  const user = await sessionUser(s);
  if (!user || !hasRole(user.role, 'viewer')) return null; // a role this release does not know signs nobody in
  const environment = s.environment && environmentConfig(s.environment) ? s.environment : 'sandbox';
  return {
    userId: user.id,
    email: user.email,
    role: user.role as TRole,
    environment,
    mustChangePassword: user.mustChangePassword,
    hasPassword: user.hasPassword,
    theme: asTheme(user.theme),
  };
}

/** Where a staff member who must change their one-time password is sent, with where to go after. */
export const CHANGE_PASSWORD_PATH = '/account/password';
export function changePasswordHref(next?: string): string {
  const target = next ? safeNext(next, '/') : '/';
  return target === '/' || target.startsWith(CHANGE_PASSWORD_PATH) ? CHANGE_PASSWORD_PATH : `${CHANGE_PASSWORD_PATH}?next=${encodeURIComponent(target)}`;
}
export const MUST_CHANGE_PASSWORD = `Change your one-time password first: at ${CHANGE_PASSWORD_PATH}, or POST /api/session/password {"currentPassword", "newPassword"}.`;

/** The signed-in staff member, even one who must change their password (the change-password page), or a redirect to the login page. */
export async function requireSignedIn(next?: string): Promise<TSignedIn> {
  const staff = await getStaff();
  if (staff) return staff;
  redirect(next ? `/login?next=${encodeURIComponent(safeNext(next, '/'))}` : '/login');
}

/**
 * The staff member, or a redirect to the login page (or to change a one-time password first).
 * `next` is where to come back to; without it, the x-console-path request header (when a proxy
 * sets it) or nothing.
 */
async function requireStaff(next?: string): Promise<TSignedIn> {
  const staff = await getStaff();
  const back = next ?? (await headers()).get('x-console-path') ?? undefined;
  if (staff?.mustChangePassword) redirect(changePasswordHref(back));
  if (staff) return staff;
  const target = back ? safeNext(back, '/') : '/';
  redirect(target === '/' ? '/login' : `/login?next=${encodeURIComponent(target)}`);
}

/**
 * The one guard of pages and server actions, called by their wrappers (staffView, staffAction and
 * its kin; app/(console) may not call it itself): the staff member when their role reaches `min`, a
 * redirect to the login page without a session, and a 403 (app/forbidden.tsx for a page, the
 * status for an action) above their role. JSON routes use withStaff({ role }) instead.
 */
export async function requireRole(min: TRole, next?: string): Promise<TSignedIn> {
  const staff = await requireStaff(next);
  if (!hasRole(staff.role, min)) forbidden();
  return staff;
}

// A 401 must name a challenge (RFC 9110 §15.5.2); the console's scheme is its session cookie, got at /login.
export const WWW_AUTHENTICATE = 'Session realm="giving-connect-console"';

/** Starts a session for a user who just proved their password (server actions and route handlers only). */
export async function startSession(userId: string): Promise<void> {
  const s = await session();
  s.sid = await createSessionRow(userId, SESSION_TTL_SECONDS);
  s.environment = 'sandbox';
  await s.save();
}

/** After a password change: every other session of the user ends (a copied cookie with them); this one stays. */
export async function endOtherSessions(userId: string): Promise<void> {
  const s = await session();
  if (typeof s.sid === 'string' && SESSION_ID.test(s.sid)) await deleteOtherSessions(userId, s.sid);
}

/** Signs out: the row goes (so the cookie is worthless wherever it was copied), then the cookie. */
export async function endSession(): Promise<void> {
  let s: Awaited<ReturnType<typeof session>>;
  try {
    s = await session();
  } catch {
    return;
  }
  if (typeof s.sid === 'string' && SESSION_ID.test(s.sid)) {
    const user = await findSessionUser(s.sid);
    await deleteSessionRow(s.sid);
    if (user) await recordAudit({ actor: { userId: user.id, email: user.email, environment: s.environment }, action: 'logout', result: 'ok' });
  }
  s.destroy();
}

/** Server action helper: switches the environment of the current session (re-checked). */
export async function setEnvironment(environment: TEnvironmentName): Promise<void> {
  const s = await session();
  if (!(await sessionUser(s))) throw new ApiError('unauthorized', 'Sign in to the console first.');
  if (!isEnvironmentName(environment) || !environmentConfig(environment)) {
    throw new ApiError('bad_request', `The ${String(environment)} environment is not configured.`);
  }
  s.environment = environment;
  await s.save();
}
