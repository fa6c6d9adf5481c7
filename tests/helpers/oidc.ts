import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

// A real OpenID provider (panva's oidc-provider) on loopback for the single sign-on tests, a proxy
// that can spoil what passes through it, and a browser made of fetch and a cookie jar.
// The provider's login step is its development interaction (any login, any password): the login
// names a person of `people`, whose claims the provider then serves. Consent is taken as given.

export const CLIENT = { id: 'gc-console', secret: 'oidc-test-client-secret-0123456789' };

/** The console's settings for single sign-on against `issuer` (a test provider on loopback), with the role claim and map. */
export const ssoEnv = (issuer: string, roleMap: string): Record<string, string> => ({
  OIDC_ISSUER: issuer,
  OIDC_ALLOW_HTTP: 'true',
  OIDC_CLIENT_ID: CLIENT.id,
  OIDC_CLIENT_SECRET: CLIENT.secret,
  OIDC_NAME: 'Corp SSO',
  OIDC_SCOPES: 'openid email profile groups',
  OIDC_ROLE_CLAIM: 'groups',
  OIDC_ROLE_MAP: roleMap,
});

export type TPerson = { email?: string; email_verified?: boolean; groups?: string[] };
/** `codeTtlSeconds`: how long the codes it issues from now on live (60 s by default). */
export type TProvider = { issuer: string; port: number; people: Map<string, TPerson>; codeTtlSeconds: number; close: () => Promise<void> };

async function listen(server: http.Server, port = 0): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * Starts a provider listening on `port` (any free one by default) whose issuer is `issuer` (its own
 * address by default; a proxy's when it sits behind one), with one confidential client whose
 * redirect URI is `redirectUri`.
 */
export async function startProvider(options: { redirectUri: string; issuer?: string; port?: number; people?: Map<string, TPerson> }): Promise<TProvider> {
  const people = options.people ?? new Map<string, TPerson>();
  const server = http.createServer();
  const port = await listen(server, options.port);
  const issuer = options.issuer ?? `http://127.0.0.1:${port}`;
  const handle: TProvider = { issuer, port, people, codeTtlSeconds: 60, close: closer(server) };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [options.redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    async findAccount(_ctx: KoaContextWithOIDC, sub: string) {
      const person = people.get(sub);
      if (!person) return undefined;
      return { accountId: sub, claims: async () => ({ sub, ...person }) };
    },
    // No consent screen: the grant is every scope asked for.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const { oidc } = ctx;
      if (!oidc.session?.accountId || !oidc.client) return undefined;
      const grant = new oidc.provider.Grant({ clientId: oidc.client.clientId, accountId: oidc.session.accountId });
      grant.addOIDCScope([...oidc.requestParamScopes].join(' '));
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    cookies: { keys: ['oidc-test-cookie-key-0123456789abcdef'] },
    ttl: { AuthorizationCode: () => handle.codeTtlSeconds, Interaction: 300, Session: 300, Grant: 300, AccessToken: 300, IdToken: 300 },
  });
  // oidc-provider explains every refusal on stderr in development; the tests check the answers.
  provider.on('server_error', (_ctx: unknown, err: Error) => console.error(`[oidc-provider] ${err.message}`));
  server.on('request', provider.callback());
  return handle;
}

export type TProxyMode = 'pass' | 'tamper-id-token' | 'drop-token';
export type TProxy = { url: string; port: number; mode: TProxyMode; close: () => Promise<void> };

/**
 * A loopback proxy in front of the provider at `targetPort` (the Host header passes unchanged, so
 * the provider names the proxy in its URLs). `mode`: pass everything; change one claim of the ID
 * token in the token endpoint's answer, keeping its signature; or drop the token request's connection.
 */
export async function startProxy(targetPort: number, port = 0): Promise<TProxy> {
  const proxy: TProxy = { url: '', port: 0, mode: 'pass', close: async () => {} };
  const server = http.createServer((req, res) => {
    const isToken = req.method === 'POST' && (req.url ?? '').startsWith('/token');
    if (isToken && proxy.mode === 'drop-token') {
      req.socket.destroy();
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (up) => {
      if (!(isToken && proxy.mode === 'tamper-id-token')) {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id_token?: string };
        if (body.id_token) body.id_token = tamper(body.id_token);
        const text = JSON.stringify(body);
        res.writeHead(up.statusCode ?? 502, { ...up.headers, 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  proxy.port = await listen(server, port);
  proxy.url = `http://127.0.0.1:${proxy.port}`;
  proxy.close = closer(server);
  return proxy;
}

/** The same JWS with one more claim in its payload: what an attacker on the way would do, unsigned. */
function tamper(jws: string): string {
  const [header, payload, signature] = jws.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  claims.email = 'mallory@corp.example';
  return [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
}

/** A browser without a screen: cookies per origin, redirects followed by hand, so each hop can be seen. */
export class Browser {
  private jar = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    let m = this.jar.get(origin);
    if (!m) this.jar.set(origin, (m = new Map()));
    return m;
  }

  cookieHeader(origin: string): string {
    return [...this.cookies(origin)].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const u = new URL(url);
    const headers: Record<string, string> = { accept: 'text/html' };
    const cookie = this.cookieHeader(u.origin);
    if (cookie) headers.cookie = cookie;
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(u, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now()));
      if (expired || value === '') this.cookies(u.origin).delete(name);
      else this.cookies(u.origin).set(name, value);
    }
    return res;
  }

  /** Follows redirects from `url` until one leads to `stopAt` (not fetched) or a page answers; the last URL and response. */
  async follow(url: string, stopAt?: string): Promise<{ url: string; res?: Response }> {
    let current = url;
    for (let i = 0; i < 10; i++) {
      if (stopAt && current.startsWith(stopAt)) return { url: current };
      const res = await this.request(current);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: current, res };
      current = new URL(location, current).href;
    }
    throw new Error(`too many redirects from ${url}`);
  }
}

/**
 * The provider's sign-in as a person would do it: from the authorization URL, its login form (the
 * development interaction) filled with `login`, until the provider sends the browser back to
 * `callbackPrefix`; returns that callback URL (not yet opened).
 */
export async function signInAtProvider(browser: Browser, authorizationUrl: string, login: string, callbackPrefix: string): Promise<string> {
  const page = await browser.follow(authorizationUrl, callbackPrefix);
  if (!page.res) return page.url; // already signed in at the provider
  const html = await page.res.text();
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`no login form at ${page.url}: ${html.slice(0, 300)}`);
  const submitted = await browser.request(new URL(action.replace(/&amp;/g, '&'), page.url).href, { form: { prompt: 'login', login, password: 'any' } });
  const next = submitted.headers.get('location');
  if (!next) throw new Error(`the login form answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`);
  const back = await browser.follow(new URL(next, page.url).href, callbackPrefix);
  if (back.res) throw new Error(`the provider did not send the browser back: ${back.url} ${back.res.status} ${(await back.res.text()).slice(0, 300)}`);
  return back.url;
}
