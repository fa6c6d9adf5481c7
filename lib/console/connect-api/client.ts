import { randomUUID } from 'node:crypto';
import { Agent, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { ConnectApiError, type TProblemInfo } from './errors';
import type { TConnectApiConfig } from './environments';
import { Reachability, type TLog } from './reachability';
import {
  ZAccountMessage,
  ZAccountMessageSummary,
  ZAttempt,
  ZConnect,
  ZGrant,
  ZMessage,
  ZNonprofit,
  ZOAuthError,
  ZPage,
  ZProblem,
  ZRecoverPreview,
  ZRecoverRun,
  ZSecret,
  ZTokenResponse,
  ZWebhook,
  ZWebhookStats,
  type TAccountMessage,
  type TAccountMessageSummary,
  type TAttempt,
  type TConnect,
  type TGrant,
  type TMessage,
  type TNonprofit,
  type TPage,
  type TRecoverPreview,
  type TRecoverRun,
  type TWebhook,
  type TWebhookStats,
} from './schemas';

// The console's only way to the Giving Connect API: HTTP over a keep-alive pool, a cached
// client-credentials token shared by concurrent callers, one refresh on 401, bounded retries of
// idempotent calls, and every answer parsed with zod.

const TOKEN_MARGIN_MS = 60_000; // renew this long before expiry
const MAX_TRIES = 3;
const MAX_RETRY_WAIT_MS = 10_000; // a longer Retry-After is reported, not waited for
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const TIMEOUT_MS = 15_000;

type TQuery = Record<string, string | number | undefined | null>;
type TPageQuery = { pageLimit?: number; pageToken?: string };

type TCall = {
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

/** Retry-After in ms (seconds or an HTTP date), or null. */
function retryAfterMs(res: TRawResponse): number | null {
  const v = header(res, 'retry-after');
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
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

export class ConnectApi {
  readonly config: TConnectApiConfig;
  private readonly baseUrl: string;
  private readonly authUrl: string;
  private readonly dispatcher: Dispatcher;
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
  private async sendWithRetry(
    operation: string,
    idempotent: boolean,
    url: string,
    send: (requestId: string) => Promise<TRawResponse>,
  ): Promise<TRawResponse> {
    for (let attempt = 1; ; attempt++) {
      const requestId = `req_${randomUUID().replaceAll('-', '')}`;
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
  private accessToken(): Promise<string> {
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
  private invalidate(used: string): void {
    if (this.token?.value === used) this.token = null;
  }

  private async exchangeToken(): Promise<string> {
    const operation = 'token exchange';
    const body = JSON.stringify({
      grant_type: 'client_credentials',
      client_id: this.config.clientId,
      client_secret: this.config.clientSecret,
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

  private url(path: string, query?: TQuery): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ''}`;
  }

  private shapeError(operation: string, res: TRawResponse, error: z.ZodError): ConnectApiError {
    const first = error.issues[0];
    const where = first ? `${first.path.join('.') || 'body'}: ${first.message}` : 'unreadable';
    const detail = `The API answered ${operation} with an unexpected body (${where}).`;
    return new ConnectApiError(detail, { status: 502, requestId: header(res, 'x-request-id'), operation, problem: { title: 'Unexpected answer', detail } });
  }

  private async apiError(call: TCall, res: TRawResponse): Promise<ConnectApiError> {
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

  private async call<S extends z.ZodType>(call: TCall, schema: S | null): Promise<z.output<S>> {
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

  private async succeeds(path: string, query?: TQuery): Promise<boolean> {
    try {
      await this.call({ operation: 'probe', method: 'GET', path, query, idempotent: true }, null);
      return true;
    } catch {
      return false;
    }
  }

  /** EXT routes under a webhook: missing when the webhook itself exists (its messages can be listed). */
  private webhookExt(webhookId: string): TCall['ext'] {
    return { probe: () => this.succeeds(`/v1/webhooks/${enc(webhookId)}/messages`, { pageLimit: 1 }) };
  }

  /* ----------------------------------------------------------- nonprofits */

  getNonprofit(ein: string): Promise<TNonprofit> {
    return this.call({ operation: 'get nonprofit', method: 'GET', path: `/v1/nonprofit/${enc(ein)}`, idempotent: true }, ZNonprofit);
  }

  /** Idempotent by contract: a second create of an EIN answers the existing record. */
  createNonprofit(body: {
    ein: string;
    user: { email: string; phone?: string; firstName?: string; lastName?: string };
    name?: string;
  }): Promise<TNonprofit> {
    return this.call({ operation: 'create nonprofit', method: 'POST', path: '/v1/nonprofits', body, idempotent: true }, ZNonprofit);
  }

  /* ------------------------------------------------------------- connects */

  /** Idempotent by contract: one Connect per nonprofit per account. */
  createConnect(nonprofitId: string, body: { name?: string; metadata?: Record<string, unknown> } = {}): Promise<TConnect> {
    return this.call(
      { operation: 'create connect', method: 'POST', path: '/v1/connects', query: { nonprofit: nonprofitId }, body, idempotent: true },
      ZConnect,
    );
  }

  getConnect(id: string): Promise<TConnect> {
    return this.call({ operation: 'get connect', method: 'GET', path: `/v1/connects/${enc(id)}`, idempotent: true }, ZConnect);
  }

  /* --------------------------------------------------------------- grants */

  listGrants(apiKey: string, page: TPageQuery = {}): Promise<TPage<TGrant>> {
    return this.call(
      {
        operation: 'list grants',
        method: 'GET',
        path: '/v1/grants',
        query: { pageLimit: page.pageLimit, pageToken: page.pageToken },
        headers: { 'x-service-api-key': apiKey },
        idempotent: true,
      },
      ZPage(ZGrant),
    );
  }

  /**
   * EXT (the public SDK's grants.get): a grant of the account, by the token alone; with `apiKey`,
   * only a grant of that Connect. Unsupported on a 405, or on a 404 whose problem `detail` does not
   * name the grant: a service with the route says which grant it lacks ("No grant with the id …"),
   * one without it answers a generic 404 (at most echoing the path, which is not counted as naming).
   */
  getGrant(id: string, apiKey?: string): Promise<TGrant> {
    return this.call(
      {
        operation: 'get grant',
        method: 'GET',
        path: `/v1/grants/${enc(id)}`,
        headers: apiKey ? { 'x-service-api-key': apiKey } : undefined,
        idempotent: true,
        ext: { resourceMissing: (problem) => namesResource(problem, id, `/v1/grants/${enc(id)}`) },
      },
      ZGrant,
    );
  }

  /* ------------------------------------------------------------- webhooks */

  createWebhook(body: {
    url: string;
    eventTypes: string[];
    description?: string;
    disabled?: boolean;
    secret?: string;
    metadata?: Record<string, unknown>;
  }): Promise<TWebhook> {
    return this.call({ operation: 'create webhook', method: 'POST', path: '/v1/webhooks', body }, ZWebhook);
  }

  /** EXT */
  listWebhooks(page: TPageQuery = {}): Promise<TPage<TWebhook>> {
    return this.call(
      { operation: 'list webhooks', method: 'GET', path: '/v1/webhooks', query: { ...page }, idempotent: true, ext: 'list' },
      ZPage(ZWebhook),
    );
  }

  /** EXT */
  getWebhook(id: string): Promise<TWebhook> {
    return this.call(
      { operation: 'get webhook', method: 'GET', path: `/v1/webhooks/${enc(id)}`, idempotent: true, ext: this.webhookExt(id) },
      ZWebhook,
    );
  }

  /** EXT. Setting absolute values, so a repeat is harmless. */
  updateWebhook(id: string, patch: { url?: string; eventTypes?: string[]; description?: string; disabled?: boolean }): Promise<TWebhook> {
    return this.call(
      { operation: 'update webhook', method: 'PATCH', path: `/v1/webhooks/${enc(id)}`, body: patch, idempotent: true, ext: this.webhookExt(id) },
      ZWebhook,
    );
  }

  /** EXT */
  async deleteWebhook(id: string): Promise<void> {
    await this.call(
      { operation: 'delete webhook', method: 'DELETE', path: `/v1/webhooks/${enc(id)}`, idempotent: true, ext: this.webhookExt(id) },
      null,
    );
  }

  /** EXT */
  getWebhookSecret(id: string): Promise<{ key: string }> {
    return this.call(
      { operation: 'get webhook secret', method: 'GET', path: `/v1/webhooks/${enc(id)}/secret`, idempotent: true, ext: this.webhookExt(id) },
      ZSecret,
    );
  }

  /** EXT */
  rotateWebhookSecret(id: string): Promise<{ key: string }> {
    return this.call(
      { operation: 'rotate webhook secret', method: 'POST', path: `/v1/webhooks/${enc(id)}/secret/rotate`, ext: this.webhookExt(id) },
      ZSecret,
    );
  }

  /** EXT: the webhook's stats over `window` (1h, 24h or 7d). */
  getWebhookStats(id: string, window: string): Promise<TWebhookStats> {
    return this.call(
      { operation: 'get webhook stats', method: 'GET', path: `/v1/webhooks/${enc(id)}/stats`, query: { window }, idempotent: true, ext: this.webhookExt(id) },
      ZWebhookStats,
    );
  }

  /* ------------------------------------------------------------- messages */

  /** EXT (like Svix's /msg): the account's messages, newest first, whatever webhooks they went to; `tag` is exact. */
  listAccountMessages(
    query: TPageQuery & { tag?: string; eventType?: string; before?: string; after?: string; delivered?: boolean } = {},
  ): Promise<TPage<TAccountMessageSummary>> {
    return this.call(
      {
        operation: 'list account messages',
        method: 'GET',
        path: '/v1/messages',
        query: { ...query, delivered: query.delivered === undefined ? undefined : String(query.delivered) },
        idempotent: true,
        ext: 'list',
      },
      ZPage(ZAccountMessageSummary),
    );
  }

  /**
   * EXT: one message of the account by its `msg_` id or `evt_` event id, with its payload and a
   * delivery per webhook it was queued for (none when nothing was subscribed). A 404 is "no such
   * message" when the account's message list answers, otherwise the route is missing.
   */
  getAccountMessage(idOrEventId: string): Promise<TAccountMessage> {
    return this.call(
      {
        operation: 'get account message',
        method: 'GET',
        path: `/v1/messages/${enc(idOrEventId)}`,
        idempotent: true,
        // The route exists when the account's message list answers: then a 404 is the message's.
        ext: { resourceMissing: () => this.succeeds('/v1/messages', { pageLimit: 1 }) },
      },
      ZAccountMessage,
    );
  }

  listMessages(
    webhookId: string,
    query: TPageQuery & { status?: string; eventType?: string; before?: string; after?: string } = {},
  ): Promise<TPage<TMessage>> {
    return this.call(
      { operation: 'list messages', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/messages`, query: { ...query }, idempotent: true },
      ZPage(ZMessage),
    );
  }

  getMessage(webhookId: string, messageId: string): Promise<TMessage> {
    return this.call(
      { operation: 'get message', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}`, idempotent: true },
      ZMessage,
    );
  }

  listAttempts(webhookId: string, messageId: string, page: TPageQuery = {}): Promise<TPage<TAttempt>> {
    return this.call(
      {
        operation: 'list attempts',
        method: 'GET',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/attempts`,
        query: { ...page },
        idempotent: true,
      },
      ZPage(ZAttempt),
    );
  }

  getAttempt(webhookId: string, messageId: string, attemptId: string): Promise<TAttempt> {
    return this.call(
      {
        operation: 'get attempt',
        method: 'GET',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/attempts/${enc(attemptId)}`,
        idempotent: true,
      },
      ZAttempt,
    );
  }

  sendTestEvent(webhookId: string, eventType?: string): Promise<TMessage> {
    return this.call(
      { operation: 'send test event', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/test`, body: eventType ? { eventType } : {} },
      ZMessage,
    );
  }

  /** EXT */
  resendMessage(webhookId: string, messageId: string): Promise<TAttempt> {
    return this.call(
      {
        operation: 'resend message',
        method: 'POST',
        path: `/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}/resend`,
        ext: { probe: () => this.succeeds(`/v1/webhooks/${enc(webhookId)}/messages/${enc(messageId)}`) },
      },
      ZAttempt,
    );
  }

  /** EXT: how many failed messages of the window a recover would re-send now. */
  previewRecover(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverPreview> {
    return this.call(
      { operation: 'preview recover', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/recover`, query: { ...window }, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverPreview,
    );
  }

  /** EXT: re-sends the window's failed messages (202 with the run; the same run while an identical one is going). */
  recoverMessages(webhookId: string, window: { since: string; until?: string }): Promise<TRecoverRun> {
    return this.call(
      // Idempotent while a run is going (the service answers the same run), so safe to retry.
      { operation: 'recover messages', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/recover`, body: window, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

  /** EXT: a recover run and its progress. */
  getRecoverRun(webhookId: string, runId: string): Promise<TRecoverRun> {
    return this.call(
      { operation: 'get recover run', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/recover/${enc(runId)}`, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRecoverRun,
    );
  }

}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** Whether a 404's problem detail names the resource `id` (and is not a router's echo of `path`). */
function namesResource(problem: TProblemInfo | null, id: string, path: string): boolean {
  const detail = problem?.detail ?? '';
  return detail.includes(id) && !detail.includes(path);
}
