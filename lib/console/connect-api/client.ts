import type { TProblemInfo } from './errors';
import {
  ZAccountRetention,
  ZConnect,
  ZErasureReport,
  ZGrant,
  ZListedNonprofit,
  ZNonprofit,
  ZPage,
  ZSecret,
  ZWebhook,
  ZWebhookStats,
  type TAccountRetention,
  type TConnect,
  type TErasureReport,
  type TGrant,
  type TListedNonprofit,
  type TNonprofit,
  type TPage,
  type TWebhook,
  type TWebhookStats,
} from './schemas';
import { ConnectApiMessages } from './client-messages';
import { enc, type TPageQuery } from './transport';

// The console's only way to the Giving Connect API: one method per operation it uses, over the
// transport (transport.ts: token, retries, zod, EXT detection): nonprofits, Connects, grants and
// webhooks here; messages, attempts and recovery in client-messages.ts.

export class ConnectApi extends ConnectApiMessages {
  /* ----------------------------------------------------------- nonprofits */

  getNonprofit(ein: string): Promise<TNonprofit> {
    return this.call({ operation: 'get nonprofit', method: 'GET', path: `/v1/nonprofit/${enc(ein)}`, idempotent: true }, ZNonprofit);
  }

  /** EXT: the registered nonprofits, newest first, each with this account's Connect; `q` an EIN's digits, a CID, or part of a name. */
  listNonprofits(query: TPageQuery & { q?: string } = {}): Promise<TPage<TListedNonprofit>> {
    return this.call(
      { operation: 'list nonprofits', method: 'GET', path: '/v1/nonprofits', query: { ...query }, idempotent: true, ext: 'list' },
      ZPage(ZListedNonprofit),
    );
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

  /** EXT: erases (or with dryRun counts) one donor's data in the service; safe to retry (idempotent). */
  eraseDonor(body: { email: string } | { grantId: string }, dryRun = false): Promise<TErasureReport> {
    return this.call({ operation: 'erase donor', method: 'POST', path: '/v1/erasures', body: { ...body, dryRun }, idempotent: true, ext: 'list' }, ZErasureReport);
  }

  /** EXT: how long the service keeps this account's payloads and messages (effective, the account's own, the defaults). */
  getRetention(): Promise<TAccountRetention> {
    return this.call({ operation: 'get retention', method: 'GET', path: '/v1/retention', idempotent: true, ext: 'list' }, ZAccountRetention);
  }

  /** EXT: sets the account's retention (a duration, or null for the service's default); the same body twice is the same change. */
  updateRetention(body: { messagePayloadRetention?: string | null; messageRetention?: string | null }): Promise<TAccountRetention> {
    return this.call({ operation: 'update retention', method: 'PATCH', path: '/v1/retention', body, idempotent: true, ext: 'list' }, ZAccountRetention);
  }
}

/** Whether a 404's problem detail names the resource `id` (and is not a router's echo of `path`). */
function namesResource(problem: TProblemInfo | null, id: string, path: string): boolean {
  const detail = problem?.detail ?? '';
  return detail.includes(id) && !detail.includes(path);
}
