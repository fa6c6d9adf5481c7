import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { newRequestId } from '@/lib/http/request-id';
import { parseRetryAfter } from '@/lib/http/retry-after';
import { ConnectApiError, type TProblemInfo } from './errors';
import type { TConnectApiConfig } from './environments';
import { Reachability, type TLog } from './reachability';
import {
  ZOAuthError,
  ZProblem,
  ZTokenResponse,
} from './schemas';

// How the console's API client talks: HTTP over a keep-alive pool, a cached client-credentials
// token shared by concurrent callers, one refresh on 401, bounded retries of idempotent calls,
// every answer parsed with zod, EXT operations told from missing ones. The operations themselves
// are in client.ts. (Longer than most files: the token, retry and EXT rules read best together.)

const TOKEN_MARGIN_MS = 60_000; // renew this long before expiry
const MAX_TRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000; // a longer Retry-After is reported, not waited for
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const TIMEOUT_MS = 15_000;

export type TQuery = Record<string, string | number | undefined | null>;
export type TPageQuery = { pageLimit?: number; pageToken?: string };

export type TCall = {
  operation: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: TQuery;
  body?: unknown;
  headers?: Record<string, string>;
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

type TRawResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function header(res: TRawResponse, name: string): string | null {
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

  /** One request, sent with its own X-Request-Id (the service adopts it), so both sides log the same id. */
  private async raw(url: string, method: string, headers: Record<string, string>, body: string | undefined, requestId: string): Promise<TRawResponse> {
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers: { ...headers, 'x-request-id': requestId },
      body,
      dispatcher: this.dispatcher,
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, text };
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
      return this.raw(tokenUrl, 'POST', { 'content-type': 'application/json', accept: 'application/json' }, body, requestId);
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
    if (!parsed.success) throw this.shapeError(operation, res, parsed.error);
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

  protected shapeError(operation: string, res: TRawResponse, error: z.ZodError): ConnectApiError {
    const first = error.issues[0];
    const where = first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'unreadable';
    const detail = `The API answered ${operation} with an unexpected body (${where}).`;
    return new ConnectApiError(detail, { status: 502, requestId: header(res, 'x-request-id'), operation, problem: { title: 'Unexpected answer', detail } });
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

  protected async call<S extends z.ZodType>(call: TCall, schema: S | null): Promise<z.output<S>> {
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const url = this.url(call.path, call.query);
    let refreshed = false;
    for (;;) {
      const token = await this.accessToken();
      const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${token}`, ...call.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await this.sendWithRetry(call.operation, call.idempotent ?? false, url, (requestId) => this.raw(url, call.method, headers, body, requestId));
      if (res.status === 401 && !refreshed) {
        // The token was revoked or the keys rotated: one fresh token, one retry.
        refreshed = true;
        this.invalidate(token);
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw await this.apiError(call, res);
      if (!schema) return undefined as z.output<S>;
      const parsed = schema.safeParse(parseJson(res.text));
      if (!parsed.success) throw this.shapeError(call.operation, res, parsed.error);
      return parsed.data;
    }
  }

  protected async succeeds(path: string, query?: TQuery): Promise<boolean> {
    try {
      await this.call({ operation: 'probe', method: 'GET', path, query, idempotent: true }, null);
      return true;
    } catch {
      return false;
    }
  }

  /** EXT routes under a webhook: missing when the webhook itself exists (its messages can be listed). */
  protected webhookExt(webhookId: string): TCall['ext'] {
    return { probe: () => this.succeeds(`/v1/webhooks/${enc(webhookId)}/messages`, { pageLimit: 1 }) };
  }
}

export function enc(segment: string): string {
  return encodeURIComponent(segment);
}
