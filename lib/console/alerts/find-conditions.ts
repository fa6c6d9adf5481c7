import { EVENT_TYPES } from '@/lib/constants';
import type { ConnectApi } from '@/lib/console/connect-api/client';
import { ConnectApiError } from '@/lib/console/connect-api/errors';
import type { TPage, TWebhook, TWebhookStats } from '@/lib/console/connect-api/types';
import { mapLimit } from '@/lib/console/map-limit';
import { receiverSides } from '@/lib/console/health/receiver-failures';
import { HEALTH_WINDOW_SECONDS, healthWindowOf } from '@/lib/console/health/health-types';
import { listReceivers } from '@/lib/console/receivers';
import { backupConditions } from './backup-conditions';
import { incidentConditions } from './incident-conditions';
import { pausedConditions } from './paused-conditions';
import { GRANT_LOOKBACK_MS, type TAlertRow, type TAlertRuleKind, type TAlertRuleRow } from './rule-schemas';

// Which subjects a rule's condition holds for right now, read from the service over HTTP (the
// console's only way to it): subject → the facts that go into the alert. A failed call throws, and
// the evaluation of that rule is skipped (nothing fires or clears on missing facts).

export type TConditions = Map<string, Record<string, unknown>>;

const PAGE = 100;
const MAX_PAGES = 50;
const PARALLEL = 8;
const GRANT_EVENT_TYPES = EVENT_TYPES.filter((t) => t.startsWith('grant.'));

async function allPages<T>(fetchPage: (pageToken?: string) => Promise<TPage<T>>): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await fetchPage(token);
    out.push(...page.results);
    token = page.nextPageToken;
    if (!token) break;
  }
  return out;
}

/** The rule's scope: its one webhook (none once it is deleted), or every webhook of the account. */
async function scopedWebhooks(api: ConnectApi, rule: TAlertRuleRow): Promise<TWebhook[]> {
  if (!rule.webhookId) return allPages((pageToken) => api.get('/v1/webhooks', { params: { query: { pageLimit: PAGE, pageToken } } }));
  try {
    return [await api.get('/v1/webhooks/{id}', { params: { path: { id: rule.webhookId } } })];
  } catch (err) {
    if (err instanceof ConnectApiError && err.status === 404 && !err.unsupported) return [];
    throw err;
  }
}

const subjectOf = (w: TWebhook) => `webhook:${w.id}`;

async function healthConditions(api: ConnectApi, rule: TAlertRuleRow, holds: (h: TWebhookStats) => boolean): Promise<TConditions> {
  const webhooks = await scopedWebhooks(api, rule);
  const window = (rule.kind === 'success_rate' ? (rule.window ?? '24h') : '1h') as TWebhookStats['window'];
  const found = await mapLimit(webhooks, PARALLEL, async (w) => ({
    w,
    health: await api.get('/v1/webhooks/{id}/stats', { params: { path: { id: w.id }, query: { window } } }),
  }));
  const out: TConditions = new Map();
  for (const { w, health } of found) {
    if (!holds(health)) continue;
    out.set(subjectOf(w), {
      webhookId: w.id,
      url: w.url,
      description: w.description,
      failureStreak: health.failureStreak,
      attempts: health.attempts,
      successes: health.successes,
      successRate: health.successRate,
      window: health.window,
      lastSuccessAt: health.lastSuccessAt,
    });
  }
  return out;
}

/**
 * What the service's figures cannot show: arrivals at this console's receiver of the webhook (when
 * its URL reaches one) over the window whose signature did not verify, or that the receiver answered
 * with an error — a receiver answering 200 to a bad signature is a success for the service. Read
 * as the health home reads it (one grouped query over the receivers' failed receipts).
 */
async function receiverConditions(rule: TAlertRuleRow, webhooks: TWebhook[], now: Date): Promise<TConditions> {
  const window = healthWindowOf(rule.window ?? '24h');
  const sides = await receiverSides(webhooks, await listReceivers(), new Date(now.getTime() - HEALTH_WINDOW_SECONDS[window] * 1000));
  const out: TConditions = new Map();
  for (const w of webhooks) {
    const side = sides.get(w.id);
    if (!side || side.failures < rule.threshold) continue;
    out.set(subjectOf(w), {
      webhookId: w.id,
      url: w.url,
      description: w.description,
      receiver: side.receiver.name,
      receiverId: side.receiver.id,
      failures: side.failures,
      unverifiedAccepted: side.unverifiedAccepted,
      lastFailureAt: side.lastFailureAt,
      window,
    });
  }
  return out;
}

async function disabledConditions(api: ConnectApi, rule: TAlertRuleRow): Promise<TConditions> {
  const out: TConditions = new Map();
  for (const w of await scopedWebhooks(api, rule)) {
    if (w.disabled) out.set(subjectOf(w), { webhookId: w.id, url: w.url, description: w.description, reason: w.disabledReason, disabledAt: w.disabledAt });
  }
  return out;
}

const tagValue = (tags: string[], prefix: string) => tags.find((t) => t.startsWith(prefix))?.slice(prefix.length) ?? null;

/**
 * Grants whose grant.* message no webhook (or, scoped, not that webhook) has had delivered within
 * N minutes: messages made between max(rule created, now − 7 days) and now − N min.
 */
async function grantConditions(api: ConnectApi, rule: TAlertRuleRow, now: Date): Promise<TConditions> {
  const before = new Date(now.getTime() - rule.threshold * 60_000);
  const after = new Date(Math.max(rule.createdAt.getTime(), now.getTime() - GRANT_LOOKBACK_MS) - 1);
  if (before <= after) return new Map();
  const range = { before: before.toISOString(), after: after.toISOString() };
  const messages: { id: string; eventType: string; timestamp: string; tags: string[]; status?: string }[] = [];
  for (const eventType of GRANT_EVENT_TYPES) {
    if (rule.webhookId) {
      const webhookId = rule.webhookId;
      const listed = await allPages((pageToken) =>
        api.get('/v1/webhooks/{id}/messages', { params: { path: { id: webhookId }, query: { ...range, eventType, pageLimit: PAGE, pageToken } } }),
      ).catch((err) => {
        if (err instanceof ConnectApiError && err.status === 404) return [];
        throw err;
      });
      messages.push(...listed.filter((m) => m.status !== 'success').map((m) => ({ ...m, tags: m.tags ?? [] })));
    } else {
      messages.push(
        ...(await allPages((pageToken) =>
          api.get('/v1/messages', { params: { query: { ...range, eventType, delivered: 'false', pageLimit: PAGE, pageToken } } }),
        )),
      );
    }
  }
  const out: TConditions = new Map();
  for (const m of messages) {
    const grantId = tagValue(m.tags, 'grant:');
    out.set(grantId ? `grant:${grantId}` : `message:${m.id}`, {
      grantId,
      trackingId: tagValue(m.tags, 'tracking:'),
      messageId: m.id,
      eventType: m.eventType,
      createdAt: m.timestamp,
      webhookId: rule.webhookId,
      status: m.status ?? 'not delivered to any webhook',
      minutes: rule.threshold,
    });
  }
  return out;
}

/** `open`: the rule's alerts firing now, by subject (an incident rule follows them to their end). */
export async function findConditions(api: ConnectApi, rule: TAlertRuleRow, now = new Date(), open = new Map<string, TAlertRow>()): Promise<TConditions> {
  switch (rule.kind as TAlertRuleKind) {
    case 'failure_streak':
      return healthConditions(api, rule, (h) => h.failureStreak >= rule.threshold);
    case 'success_rate':
      return healthConditions(api, rule, (h) => h.attempts >= rule.minAttempts && h.successRate !== null && h.successRate * 100 < rule.threshold);
    case 'receiver_failures':
      return receiverConditions(rule, await scopedWebhooks(api, rule), now);
    case 'webhook_disabled':
      return disabledConditions(api, rule);
    case 'about_to_disable':
      return incidentConditions(api, rule, await scopedWebhooks(api, rule), open, now);
    case 'webhook_paused':
      return pausedConditions(api, rule, await scopedWebhooks(api, rule), now);
    case 'grant_undelivered':
      return grantConditions(api, rule, now);
    case 'backup_failed':
      return backupConditions(rule, now);
    default:
      return new Map();
  }
}
