import 'server-only';
import { ConnectApiError, type ConnectApi, type TMessage } from '@/lib/console/connect-api';
import type { TEnvironmentName } from '../staff/session';
import { mapLimit } from '../map-limit';
import { troubledMessageIds } from '../receivers/receipts-by-message';
import { receiversOfDelivery } from '../timeline/join-delivery';
import { isDeliveryProblem, RECONCILIATION_LABELS } from '../timeline/reconcile';
import { isProblemNotPaused, pausedIds } from './paused-problems';
import { deliveryOf } from '../timeline/message-delivery';
import { problemGrant } from './problem-grant';
import { completeRows, joinRows, type TProblemContext, type TProblemRow } from './problem-rows';
import { encodeCursor, SUSPICIOUS_KIND, SUSPICIOUS_LABEL, type TProblemGroup, type TProblemItem, type TScanCursor } from './problem-types';

// The problems view for a service without GET /v1/webhooks/messages (an extension): each webhook's
// failed and pending messages read through its message list, up to SCAN_CAP each, plus the
// messages of this console's troubled receipts, joined and reconciled, then sorted and paged here.

/** Per webhook and source: beyond this the group says "at least". */
const SCAN_CAP = 500;

/** Newest first; ties by message id, then webhook id, both descending. */
const order = (a: TProblemItem, b: TProblemItem) =>
  b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id) || b.webhookId.localeCompare(a.webhookId);
const afterCursor = (c: TScanCursor) => (i: TProblemItem) => order({ timestamp: c.t, id: c.m, webhookId: c.w } as TProblemItem, i) < 0;

async function messagesWithStatus(
  api: ConnectApi,
  webhookId: string,
  status: TMessage['status'],
  since: Date,
  until: Date,
): Promise<{ messages: TMessage[]; truncated: boolean }> {
  const messages: TMessage[] = [];
  let pageToken: string | undefined;
  while (messages.length < SCAN_CAP) {
    const page = await api.get('/v1/webhooks/{id}/messages', {
      params: { path: { id: webhookId }, query: { status, after: since.toISOString(), before: until.toISOString(), pageLimit: 100, pageToken } },
    });
    messages.push(...page.results);
    if (!page.nextPageToken) return { messages, truncated: false };
    pageToken = page.nextPageToken;
  }
  return { messages, truncated: true };
}

export async function scanProblems(
  envName: TEnvironmentName,
  api: ConnectApi,
  ctx: TProblemContext,
  { since, until, cursor, pageLimit }: { since: Date; until: Date; cursor?: TScanCursor; pageLimit: number },
): Promise<{ groups: TProblemGroup[]; items: TProblemItem[]; nextPageToken: string | null }> {
  const paused = pausedIds(ctx.webhooks);
  const perWebhook = await mapLimit(ctx.webhooks, 3, async (webhook) => {
    const targets = receiversOfDelivery([], webhook.url, ctx.receivers, ctx.addresses);
    const [failed, pending, troubled] = await Promise.all([
      messagesWithStatus(api, webhook.id, 'failed', since, until),
      messagesWithStatus(api, webhook.id, 'pending', since, until),
      troubledMessageIds(
        targets.map((r) => r.id),
        since,
        until,
        SCAN_CAP,
      ),
    ]);
    const known = new Set([...failed.messages, ...pending.messages].map((m) => m.id));
    // Arrivals with a bad signature or an error answer whose message the sender may count as
    // delivered: found from the receipts of the window (receipts_troubled_idx).
    const extra: (TMessage | null)[] = await mapLimit(
      troubled.filter((id) => !known.has(id)),
      6,
      (id) =>
        api
          .get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhook.id, messageId: id } } })
          .catch((err) => (err instanceof ConnectApiError && err.status === 404 ? null : Promise.reject(err))),
    );
    // A message that moved from pending to failed between the two reads is listed once.
    const messages = [...new Map([...failed.messages, ...pending.messages, ...extra.filter((m): m is TMessage => m !== null)].map((m) => [m.id, m])).values()];
    const rows: TProblemRow[] = await mapLimit(messages, 6, async (message) => ({
      webhook,
      message,
      delivery: await deliveryOf(envName, api, webhook.id, message),
    }));
    const joined = await joinRows(api, ctx, webhook, rows);
    const items = joined.map((m, i): TProblemItem => ({ ...m, webhookId: webhook.id, grant: problemGrant(messages[i]) })).filter(isProblemNotPaused(paused));
    const byState = new Map<string, number>();
    for (const item of items) {
      const key = isDeliveryProblem(item) ? item.reconciliation : SUSPICIOUS_KIND;
      byState.set(key, (byState.get(key) ?? 0) + 1);
    }
    const truncated = failed.truncated || pending.truncated || troubled.length >= SCAN_CAP;
    const receiver = targets[0] ? { id: targets[0].id, name: targets[0].name, slug: targets[0].slug } : null;
    const counts = [...byState].map(([key, count]) => ({
      key,
      label: key === SUSPICIOUS_KIND ? SUSPICIOUS_LABEL : RECONCILIATION_LABELS[key as keyof typeof RECONCILIATION_LABELS],
      count,
      capped: truncated,
    }));
    const group: TProblemGroup = { webhook, receiver, counts, total: items.length, truncated };
    return { group, items, rows: new Map(rows.map((r) => [r.message.id, r])) };
  });

  const groups = perWebhook.map((p) => p.group).filter((g) => g.total > 0);
  const all = perWebhook.flatMap((p) => p.items).sort(order);
  const rest = cursor ? all.filter(afterCursor(cursor)) : all;
  const shown = rest.slice(0, pageLimit);
  const rowsOf = new Map(perWebhook.map((p, i) => [ctx.webhooks[i].id, p.rows]));
  const items = await completeRows(
    api,
    ctx,
    shown.map((i) => rowsOf.get(i.webhookId)!.get(i.id)!),
  );
  const last = shown[shown.length - 1];
  return {
    groups,
    items,
    nextPageToken: rest.length > pageLimit && last ? encodeCursor({ k: 'scan', t: last.timestamp, m: last.id, w: last.webhookId }) : null,
  };
}
