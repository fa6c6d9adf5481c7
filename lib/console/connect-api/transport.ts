import { Agent, request, type Dispatcher } from 'undici';
import { z } from 'zod';
import { newRequestId } from '@/lib/http/request-id';
import { parseRetryAfter } from '@/lib/http/retry-after';
import { ConnectApiError, type TProblemInfo } from './errors';
import type { TConnectApiConfig } from './environments';
import { Reachability, type TLog } from './reachability';

// How the console's API client talks: HTTP over a keep-alive pool, a cached client-credentials
// token shared by concurrent callers, one refresh on 401, bounded retries of idempotent calls,
// EXT operations told from missing ones. The operations themselves come from the OpenAPI
// document (client.ts). (Longer than most files: the token, retry and EXT rules read best together.)

const TOKEN_MARGIN_MS = 60_000; // renew this long before expiry
const MAX_TRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000; // a longer Retry-After is reported, not waited for
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const TIMEOUT_MS = 15_000;

export type TQuery = Record<string, string | number | boolean | undefined | null>;

/** What the transport needs of an operation: its name, whether it is safe to send twice, and its EXT rule. */
export type TCall = {
  operation: string;
  /** Safe to send twice: retried on network errors and 429/502/503/504. */
  idempotent?: boolean;
  /**
   * An EXT operation: a 404/405 for the route itself marks the error unsupported. Which 404s are
   * the route's: 'list' — any; `probe` — those where the probe (a call that succeeds when the
   * resource around the route exists) succeeds; `resourceMissing` — those it does not confirm as
   * "the route exists, the resource does not".
   */
  ext?: 'list' | { probe: () => Promise<boolean> } | { resourceMissing: (problem: TProblemInfo | null) => boolean | Promise<boolean> };
};

/** The token endpoint's answer (RFC 6749 §5.1), RFC 9457 problem details loosely (whatever of it is there), and RFC 6749 §5.2's errors. */
const ZTokenResponse = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive().optional() });
const ZProblem = z.object({
  title: z.string().optional().catch(undefined),
  detail: z.string().optional().catch(undefined),
  errors: z
    .array(z.object({ path: z.coerce.string(), message: z.coerce.string() }))
    .optional()
    .catch(undefined),
});
const ZOAuthError = z.object({ error: z.string(), error_description: z.string().optional() });

/** An answer: its text, or (a streamed 2xx) its body still to read. */
export type TRawResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string; body?: TBody };
export type TBody = AsyncIterable<Buffer> & { destroy: () => void };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function header(res: Pick<TRawResponse, 'headers'>, name: string): string | null {
  const v = res.headers[name];
  return (Array.isArray(v) ? v[0] : v) ?? null;
}

/** Retry-After in ms, or null. */
function retryAfterMs(res: TRawResponse): number | null {
  const seconds = parseRetryAfter(header(res, 'retry-after'));
  return seconds === null ? null : seconds * 1000;
}

function backoffMs(attempt: number): number {
  const base = 200 * 2 ** (attempt - 1);
  return base / 2 + Math.random() * base; // full-ish jitter
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `text` ending with exactly one full stop. */
function sentence(text: string): string {
  return `${text.trim().replace(/[.\s]+$/, '')}.`;
}

function networkCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; message?: string };
  return e?.code ?? e?.cause?.code ?? e?.message ?? 'network error';
}

export class ConnectApiTransport {
  readonly config: TConnectApiConfig;
  private readonly baseUrl: string;
  private readonly authUrl: string;
  protected readonly dispatcher: Dispatcher;
  private token: { value: string; renewAt: number } | null = null;
  private inflightToken: Promise<string> | null = null;
  private tokenExchanges = 0;
  private readonly reachability: Reachability;

  constructor(config: TConnectApiConfig, options: { dispatcher?: Dispatcher; log?: { down: TLog; up: TLog } } = {}) {
    this.config = config;
    this.reachability = new Reachability(`Connect API ${config.name ?? ''}`.trim(), options.log);
    // The API's root (lib/api-base-url.ts normalised it in the configuration); paths below carry /v1.
    this.baseUrl = config.baseUrl;
    this.authUrl = config.authUrl;
    this.dispatcher =
      options.dispatcher ??
      new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 32, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS });
  }

  /** An absolute link to a page of the service (the donor page), from the same root as every call. */
  serviceUrl(path: string): string {
    return `${this.baseUrl}${path}`;
  }

  stats(): { tokenExchanges: number } {
    return { tokenExchanges: this.tokenExchanges };
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }

  /* ------------------------------------------------------------ transport */

  /** One request, sent with its own X-Request-Id (the service adopts it), so both sides log the same id; `stream`: a 2xx body is left to read. */
  private async raw(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    requestId: string,
    stream: boolean,
  ): Promise<TRawResponse> {
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers: { ...headers, 'x-request-id': requestId },
      body,
      dispatcher: this.dispatcher,
    });
    if (stream && res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, headers: res.headers, text: '', body: res.body };
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  }

  /** Sends to `url` with retries of network errors and 429/502/503/504 when `idempotent`; notes whether the host answered. */
  protected async sendWithRetry(
    operation: string,
    idempotent: boolean,
    url: string,
    send: (requestId: string) => Promise<TRawResponse>,
  ): Promise<TRawResponse> {
    for (let attempt = 1; ; attempt++) {
      const requestId = newRequestId();
      let res: TRawResponse;
      try {
        res = await send(requestId);
      } catch (err) {
        if (idempotent && attempt < MAX_TRIES) {
          await sleep(backoffMs(attempt));
          continue;
        }
        const code = networkCode(err);
        this.reachability.note({ url, operation, requestId, networkError: code });
        throw new ConnectApiError(`Could not reach the API (${code}).`, {
          status: 0,
          requestId,
          operation,
          problem: { title: 'API unreachable', detail: `Could not reach the Giving Connect API for ${operation} (${code}).` },
        });
      }
      if (idempotent && attempt < MAX_TRIES && RETRY_STATUSES.has(res.status)) {
        const wait = retryAfterMs(res) ?? backoffMs(attempt);
        if (wait <= MAX_RETRY_WAIT_MS) {
          await sleep(wait);
          continue;
        }
      }
      this.reachability.note({ url, operation, requestId: header(res, 'x-request-id') ?? requestId, status: res.status });
      return res;
    }
  }

  /* ---------------------------------------------------------------- token */

  /** The cached token, or one exchange shared by every caller waiting for it. */
  protected accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.inflightToken ??= this.exchangeToken().finally(() => {
      this.inflightToken = null;
    });
    return this.inflightToken;
  }

  /** A token now (one exchange, or the cached one): the start check's proof that the credentials work. */
  async ensureToken(): Promise<void> {
    await this.accessToken();
  }

  /** Drops `used` so the next call exchanges again (unless someone already did). */
  protected invalidate(used: string): void {
    if (this.token?.value === used) this.token = null;
  }

  private async exchangeToken(): Promise<string> {
    const operation = 'token exchange';
    const secret = this.config.clientSecret;
    const body = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: typeof secret === 'string' ? secret : await secret(),
      audience: this.config.audience,
    });
    const tokenUrl = `${this.authUrl}/oauth/token`;
    const res = await this.sendWithRetry(operation, true, tokenUrl, (requestId) => {
      this.tokenExchanges++;
      return this.raw(tokenUrl, 'POST', { 'content-type': 'application/json', accept: 'application/json' }, body, requestId, false);
    });
    const requestId = header(res, 'x-request-id');
    const json = parseJson(res.text);
    if (res.status !== 200) {
      const oauth = ZOAuthError.safeParse(json);
      const problem: TProblemInfo = oauth.success
        ? { title: oauth.data.error, detail: `The token exchange failed: ${sentence(oauth.data.error_description ?? oauth.data.error)}` }
        : { title: 'Token exchange failed', detail: `The token exchange at ${this.authUrl}/oauth/token answered ${res.status}.` };
      throw new ConnectApiError(problem.detail!, { status: res.status, requestId, problem, operation });
    }
    const parsed = ZTokenResponse.safeParse(json);
    if (!parsed.success) throw this.shapeError(operation, header(res, 'x-request-id'), parsed.error.issues[0]?.path.join('.') || 'body');
    const lifetimeMs = (parsed.data.expires_in ?? 3600) * 1000;
    const margin = Math.min(TOKEN_MARGIN_MS, lifetimeMs / 2);
    this.token = { value: parsed.data.access_token, renewAt: Date.now() + lifetimeMs - margin };
    return this.token.value;
  }

  /* ---------------------------------------------------------------- calls */

  protected url(path: string, query?: TQuery): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ''}`;
  }

  protected shapeError(operation: string, requestId: string | null, where: string): ConnectApiError {
    const detail = `The API answered ${operation} with an unexpected body (${where}).`;
    return new ConnectApiError(detail, { status: 502, requestId, operation, problem: { title: 'Unexpected answer', detail } });
  }

  protected async apiError(call: TCall, res: TRawResponse): Promise<ConnectApiError> {
    const parsed = ZProblem.safeParse(parseJson(res.text));
    const problem: TProblemInfo | null = parsed.success && (parsed.data.title || parsed.data.detail) ? parsed.data : null;
    const detail = problem?.detail ?? problem?.title ?? `The API answered ${res.status} to ${call.operation}.`;
    const err = new ConnectApiError(detail, { status: res.status, requestId: header(res, 'x-request-id'), problem, operation: call.operation });
    if (!call.ext || (res.status !== 404 && res.status !== 405)) return err;
    if (res.status === 405 || call.ext === 'list') return err.withUnsupported();
    if ('resourceMissing' in call.ext) {
      const missing = await Promise.resolve(call.ext.resourceMissing(problem)).catch(() => false);
      return missing ? err : err.withUnsupported();
    }
    // A 404 on /v1/webhooks/{id}/…: the route may be missing, or the resource. Ask a core route.
    const exists = await call.ext.probe().catch(() => false);
    return exists ? err.withUnsupported() : err;
  }

  /** Sends with the token (one refresh on a 401) and retries when safe; a non-2xx answer is thrown as a ConnectApiError. */
  protected async exchange(call: TCall, method: string, url: string, given: Record<string, string>, body?: string, stream = false): Promise<TRawResponse> {
    let refreshed = false;
    for (;;) {
      const token = await this.accessToken();
      const accept = stream ? 'application/x-ndjson, application/problem+json' : 'application/json';
      const headers: Record<string, string> = { ...given, accept, authorization: `Bearer ${token}` };
      const res = await this.sendWithRetry(call.operation, call.idempotent ?? false, url, (requestId) =>
        this.raw(url, method, headers, body, requestId, stream),
      );
      if (res.status === 401 && !refreshed) {
        // The token was revoked or the keys rotated: one fresh token, one retry.
        refreshed = true;
        this.invalidate(token);
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw await this.apiError(call, res);
      return res;
    }
  }

  protected async succeeds(path: string, query?: TQuery): Promise<boolean> {
    try {
      await this.exchange({ operation: 'probe', idempotent: true }, 'GET', this.url(path, query), {});
      return true;
    } catch {
      return false;
    }
  }
}

export function enc(segment: string): string {
  return encodeURIComponent(segment);
}
