import assert from 'node:assert/strict';
import { ADMIN, SANDBOX, type TApp } from './app';
import { assertDocumented } from './openapi-check';

export type TResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

/**
 * One HTTP call; the body is parsed when it is JSON. A response of the service is checked against
 * its /openapi.json (tests/helpers/openapi-check.ts): one the document does not describe fails.
 */
export async function call<T = any>(
  app: Pick<TApp, 'baseUrl'>,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<TResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${app.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  await assertDocumented(app.baseUrl, method, path, { status: res.status, headers: res.headers, text });
  let parsed: any = text;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json') && !type.includes('ndjson') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** An access token for `creds`: by default the sandbox client's, or on a shared app the file's own account's (tests/helpers/shared-app.ts). */
export async function token(
  app: Pick<TApp, 'baseUrl'> & { defaultClient?: { client_id: string; client_secret: string } },
  creds: { client_id: string; client_secret: string } = app.defaultClient ?? { client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret },
): Promise<string> {
  const res = await call(app, 'POST', '/oauth/token', { body: { ...creds, audience: SANDBOX.audience, grant_type: 'client_credentials' } });
  assert.equal(res.status, 200, res.text);
  return res.body.access_token;
}

/** Asserts an RFC 9457 problem with `status`, and returns it. */
export function assertProblem(res: TResponse, status: number, detailPattern?: RegExp) {
  assert.equal(res.status, status, `expected ${status}, got ${res.status}: ${res.text}`);
  assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.detail, 'string');
  assert.ok(res.headers.get('x-request-id'), 'every response has X-Request-Id');
  if (detailPattern) assert.match(res.body.detail, detailPattern);
  return res.body;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes. */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(100);
  }
}

const adminCookies = new WeakMap<object, Promise<string>>();

/**
 * The bootstrap admin's session cookie, signed in once per app. For checks that run at once against one app (the upgrade
 * walk): each sign-in reserves its place in the email-and-address window before its password is checked, so more than
 * five at once are refused (429, lib/console/staff/login.ts).
 */
export function adminCookieOnce(app: Pick<TApp, 'baseUrl'>): Promise<string> {
  let cookie = adminCookies.get(app);
  if (!cookie) {
    cookie = staffCookie(app);
    adminCookies.set(app, cookie);
    cookie.catch(() => adminCookies.delete(app));
  }
  return cookie;
}

/** The password staffCookie chooses for a user who signed in with a one-time password. */
export const ownPassword = (oneTime: string) => `${oneTime}-own`;

/**
 * Signs in to the console as `who` (the bootstrap admin by default); returns the session cookie.
 * A one-time password (a user an admin added or reset) is changed first, to ownPassword(it), as the
 * console demands before anything else (tests/integration/password-change.test.ts tests that itself).
 */
export async function staffCookie(app: Pick<TApp, 'baseUrl'>, who: { email: string; password: string } = ADMIN): Promise<string> {
  const res = await call(app, 'POST', '/api/session', { body: who });
  assert.equal(res.status, 200, res.text);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('gc_console_session='));
  assert.ok(cookie, 'a session cookie is set');
  const session = cookie.split(';')[0];
  if (res.body.mustChangePassword) {
    const changed = await call(app, 'POST', '/api/session/password', {
      headers: { cookie: session },
      body: { currentPassword: who.password, newPassword: ownPassword(who.password) },
    });
    assert.equal(changed.status, 204, changed.text);
  }
  return session;
}
