import type { ConnectApi, TMessage } from '@/lib/console/connect-api';
import type { TConsoleAddresses } from '../receivers/receiver-urls';
import type { TReceiver } from '../receivers';
import { mapLimit } from '../map-limit';
import { withLastResponse } from '../timeline/attempts-of-message';
import type { TJoinDelivery } from '../timeline/join-delivery';
import { joinMessages } from '../timeline/join-messages';
import type { TTimelineMessage, TTimelineWebhook } from '../timeline/timeline-types';
import { problemGrant } from './problem-grant';
import type { TProblemItem } from './problem-types';

// The problems view's rows, joined and reconciled like the timeline: what both reads share.

export type TProblemContext = {
  receivers: TReceiver[];
  addresses: TConsoleAddresses;
  /** Every webhook of the account (a receiver they share splits its arrivals by address). */
  webhooks: readonly TTimelineWebhook[];
  /** When the caller began reading the API. */
  asOf: Date;
  now: Date;
};

export type TProblemRow = { webhook: TTimelineWebhook; message: TMessage; delivery: TJoinDelivery };

/** Rows of one webhook joined with this console's receipts. */
export async function joinRows(api: ConnectApi, ctx: TProblemContext, webhook: TTimelineWebhook, rows: TProblemRow[]): Promise<TTimelineMessage[]> {
  return joinMessages(api, {
    webhookId: webhook.id,
    messages: rows.map((r) => r.message),
    deliveries: rows.map((r) => r.delivery),
    webhook,
    webhookUrl: webhook.url,
    receivers: ctx.receivers,
    addresses: ctx.addresses,
    siblings: ctx.webhooks,
    asOf: ctx.asOf,
    now: ctx.now,
  });
}

/**
 * The page's rows in full, in the page's order: each newest failed attempt's response (its
 * explanation quotes it) and the grant from the message's payload — a few calls per shown row,
 * never per scanned message.
 */
export async function completeRows(api: ConnectApi, ctx: TProblemContext, page: TProblemRow[]): Promise<TProblemItem[]> {
  const done = new Map<string, TProblemItem>();
  const byWebhook = new Map<string, TProblemRow[]>();
  for (const r of page) byWebhook.set(r.webhook.id, [...(byWebhook.get(r.webhook.id) ?? []), r]);
  await mapLimit([...byWebhook.values()], 3, async (rows) => {
    const webhook = rows[0].webhook;
    const [messages, deliveries] = await Promise.all([
      mapLimit(rows, 6, (r) => withPayload(api, webhook.id, r.message)),
      mapLimit(rows, 6, (r) => withLastResponse(api, webhook.id, r.message.id, r.delivery)),
    ]);
    const joined = await joinRows(
      api,
      ctx,
      webhook,
      rows.map((r, i) => ({ ...r, message: messages[i], delivery: deliveries[i] })),
    );
    joined.forEach((m, k) => done.set(`${webhook.id}\n${m.id}`, { ...m, webhookId: webhook.id, grant: problemGrant(messages[k]) }));
  });
  return page.flatMap((r) => done.get(`${r.webhook.id}\n${r.message.id}`) ?? []);
}

/** The message with its payload (a list leaves it out); as listed when the service cannot say. */
async function withPayload(api: ConnectApi, webhookId: string, m: TMessage): Promise<TMessage> {
  if (m.payload !== undefined) return m;
  return api.get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: webhookId, messageId: m.id } } }).catch(() => m);
}
