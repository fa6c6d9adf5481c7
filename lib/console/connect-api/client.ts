import type { TProblemInfo } from './errors';
import {
  ZErasureReport,
  ZAccountMessage,
  ZAccountMessageSummary,
  ZAttempt,
  ZConnect,
  ZGrant,
  ZMessage,
  ZNonprofit,
  ZPage,
  ZRecoverPreview,
  ZRecoverRun,
  ZRetryPendingPreview,
  ZRetryPendingResult,
  ZSecret,
  ZWebhook,
  ZWebhookStats,
  type TAccountMessage,
  type TErasureReport,
  type TAccountMessageSummary,
  type TAttempt,
  type TConnect,
  type TGrant,
  type TMessage,
  type TNonprofit,
  type TPage,
  type TRecoverPreview,
  type TRecoverRun,
  type TRetryPendingPreview,
  type TRetryPendingResult,
  type TWebhook,
  type TWebhookStats,
} from './schemas';
import { ConnectApiTransport, enc, type TPageQuery } from './transport';

// The console's only way to the Giving Connect API: one method per operation it uses, over the
// transport (transport.ts: token, retries, zod, EXT detection). It grows with the operations the
// console uses (about thirty, a few lines each), which is why it is longer than most files.

export class ConnectApi extends ConnectApiTransport {
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

  /** EXT: every webhook's stats over `window`, a page of the account's webhooks at a time (one call instead of one per webhook). */
  listWebhookStats(window: string, page: TPageQuery = {}): Promise<TPage<TWebhookStats>> {
    return this.call(
      { operation: 'list webhook stats', method: 'GET', path: '/v1/webhooks/stats', query: { window, ...page }, idempotent: true, ext: 'list' },
      ZPage(ZWebhookStats),
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
    query: TPageQuery & { status?: string; eventType?: string; before?: string; after?: string; withContent?: boolean } = {},
  ): Promise<TPage<TMessage>> {
    return this.call(
      { operation: 'list messages', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/messages`, query: { ...query, withContent: query.withContent ? 'true' : undefined }, idempotent: true },
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

  /** EXT: how many messages of the window wait for a retry (the preview of a retry now). */
  previewRetryPending(webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingPreview> {
    return this.call(
      { operation: 'preview retry now', method: 'GET', path: `/v1/webhooks/${enc(webhookId)}/retry-pending`, query: { ...window }, idempotent: true, ext: this.webhookExt(webhookId) },
      ZRetryPendingPreview,
    );
  }

  /** EXT: attempts now the window's messages waiting for a retry; their schedules resume after. */
  retryPendingNow(webhookId: string, window: { since: string; until?: string }): Promise<TRetryPendingResult> {
    return this.call(
      // Not retried on a lost answer: each call advances the schedules of what it makes due.
      { operation: 'retry now', method: 'POST', path: `/v1/webhooks/${enc(webhookId)}/retry-pending`, body: window, ext: this.webhookExt(webhookId) },
      ZRetryPendingResult,
    );
  }

  /** EXT: erases (or with dryRun counts) one donor's data in the service; safe to retry (idempotent). */
  eraseDonor(body: { email: string } | { grantId: string }, dryRun = false): Promise<TErasureReport> {
    return this.call({ operation: 'erase donor', method: 'POST', path: '/v1/erasures', body: { ...body, dryRun }, idempotent: true, ext: 'list' }, ZErasureReport);
  }
}

/** Whether a 404's problem detail names the resource `id` (and is not a router's echo of `path`). */
function namesResource(problem: TProblemInfo | null, id: string, path: string): boolean {
  const detail = problem?.detail ?? '';
  return detail.includes(id) && !detail.includes(path);
}
