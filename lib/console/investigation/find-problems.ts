import 'server-only';
import { z } from 'zod';
import { ConnectApiError, type ConnectApi, type TMessage } from '@/lib/console/connect-api';
import { badPageToken } from '@/lib/http/page-limit';
import { accountWebhooks } from '../account-webhooks';
import { receiversOfDelivery, type TJoinDelivery } from '../timeline/join-delivery';
import { mapLimit } from '../map-limit';
import { troubledMessageIds } from '../receivers/receipts-by-message';
import { listReceivers } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import { problemGrant, type TProblemGrant } from './problem-grant';
import { isProblem, type TReconciliation } from '../timeline/reconcile';
import type { TEnvironmentName } from '../staff/session';
import { withLastResponse } from '../timeline/attempts-of-message';
import { deliveryOf, joinMessages } from '../timeline/timeline';
import type { TReceiverRef, TTimelineMessage, TTimelineWebhook } from '../timeline/timeline-types';

// Problems across every webhook of the account in a date range: each (message, webhook) that
// failed, is still pending past its first retry, was sent but not received, arrived with a bad
// signature or was answered with an error. Sender side from the API's status filters, receiver
// side from this console's receipts; both joined and reconciled like the timeline. Healthy
// webhooks do not appear.

export const PROBLEMS_PAGE_SIZE = 50;
export const DEFAULT_WINDOW_MS = 7 * 24 * 3600_000;
/** Per webhook and source: beyond this the group says "at least". */
const SCAN_CAP = 500;

export type TProblemItem = TTimelineMessage & { webhookId: string; grant: TProblemGrant | null };
export type TProblemGroup = {
  webhook: TTimelineWebhook;
  receiver: TReceiverRef | null;
  counts: Partial<Record<TReconciliation, number>>;
  total: number;
  /** The scan stopped at its cap: there are at least `total`. */
  truncated: boolean;
};
export type TProblems = {
  since: string;
  until: string;
  groups: TProblemGroup[];
  items: TProblemItem[];
  nextPageToken: string | null;
  notes: string[];
  fetchedAt: string;
};

const ZCursor = z.object({ t: z.iso.datetime(), m: z.string().min(1).max(200), w: z.string().min(1).max(200) });
export type TCursor = z.output<typeof ZCursor>;

export function encodeCursor(c: TCursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(token: string): TCursor {
  try {
    return ZCursor.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
  } catch {
    throw badPageToken('console');
  }
}

/** Newest first; ties by message id, then webhook id, both descending. */
const order = (a: TProblemItem, b: TProblemItem) => b.timestamp.localeCompare(a.timestamp) || b.id.localeCompare(a.id) || b.webhookId.localeCompare(a.webhookId);
const afterCursor = (c: TCursor) => (i: TProblemItem) => order({ timestamp: c.t, id: c.m, webhookId: c.w } as TProblemItem, i) < 0;

async function messagesWithStatus(api: ConnectApi, webhookId: string, status: string, since: Date, until: Date): Promise<{ messages: TMessage[]; truncated: boolean }> {
  const messages: TMessage[] = [];
  let pageToken: string | undefined;
  while (messages.length < SCAN_CAP) {
    const page = await api.listMessages(webhookId, { status, after: since.toISOString(), before: until.toISOString(), pageLimit: 100, pageToken });
    messages.push(...page.results);
    if (!page.nextPageToken) return { messages, truncated: false };
    pageToken = page.nextPageToken;
  }
  return { messages, truncated: true };
}

export async function findProblems(
  envName: TEnvironmentName,
  api: ConnectApi,
  { since, until, cursor, pageLimit = PROBLEMS_PAGE_SIZE }: { since: Date; until: Date; cursor?: TCursor; pageLimit?: number },
): Promise<TProblems> {
  const [{ webhooks, listed }, receivers, addresses] = await Promise.all([accountWebhooks(envName, api), listReceivers(), consoleAddresses()]);
  const now = new Date();
  const notes = listed ? [] : ['This service does not list webhooks (an extension): only the webhooks this console tracks are checked.'];

  // The scan: every webhook's problems, joined and reconciled without what only a shown row needs.
  const perWebhook = await mapLimit(webhooks, 3, async (webhook) => {
    const asOf = new Date();
    const targets = receiversOfDelivery([], webhook.url, receivers, addresses);
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
    // delivered: found from the receipts of the window (receipts_troubled_idx), not by reading
    // every delivered message.
    const extra = await mapLimit(
      troubled.filter((id) => !known.has(id)),
      6,
      (id) => api.getMessage(webhook.id, id).catch((err) => (err instanceof ConnectApiError && err.status === 404 ? null : Promise.reject(err))),
    );
    // A message that moved from pending to failed between the two reads is listed once.
    const messages = [...new Map([...failed.messages, ...pending.messages, ...extra.filter((m): m is TMessage => m !== null)].map((m) => [m.id, m])).values()];
    const deliveries = await mapLimit(messages, 6, (m) => deliveryOf(envName, api, webhook.id, m));
    const scan: TScan = { webhook, messages, deliveries, asOf };
    const joined = await joinMessages(api, joinInput(scan, messages, deliveries));
    const items = joined.map((m, i): TProblemItem => ({ ...m, webhookId: webhook.id, grant: problemGrant(messages[i]) })).filter(isProblem);
    const counts: TProblemGroup['counts'] = {};
    for (const item of items) counts[item.reconciliation] = (counts[item.reconciliation] ?? 0) + 1;
    const receiver = targets[0] ? { id: targets[0].id, name: targets[0].name, slug: targets[0].slug } : null;
    const group: TProblemGroup = { webhook, receiver, counts, total: items.length, truncated: failed.truncated || pending.truncated || troubled.length >= SCAN_CAP };
    return { group, items, scan };
  });

  const groups = perWebhook
    .map((p) => p.group)
    .filter((g) => g.total > 0)
    .sort((a, b) => b.total - a.total);
  const all = perWebhook.flatMap((p) => p.items).sort(order);
  const rest = cursor ? all.filter(afterCursor(cursor)) : all;
  const shown = rest.slice(0, pageLimit);
  const items = await completeRows(api, shown, new Map(perWebhook.map((p) => [p.scan.webhook.id, p.scan])));
  const last = items[items.length - 1];
  return {
    since: since.toISOString(),
    until: until.toISOString(),
    groups,
    items,
    nextPageToken: rest.length > pageLimit && last ? encodeCursor({ t: last.timestamp, m: last.id, w: last.webhookId }) : null,
    notes,
    fetchedAt: now.toISOString(),
  };

  function joinInput(scan: TScan, messages: TMessage[], deliveries: TJoinDelivery[]) {
    const { webhook, asOf } = scan;
    return { webhookId: webhook.id, messages, deliveries, webhook, webhookUrl: webhook.url, receivers, addresses, siblings: webhooks, asOf, now };
  }

  /**
   * The page's rows in full: each newest failed attempt's response (its explanation quotes it) and
   * the grant from the message's payload — a few calls per shown row, never per scanned message.
   */
  async function completeRows(api: ConnectApi, page: TProblemItem[], scans: Map<string, TScan>): Promise<TProblemItem[]> {
    const done = new Map<string, TProblemItem>();
    const byWebhook = new Map<string, TProblemItem[]>();
    for (const i of page) byWebhook.set(i.webhookId, [...(byWebhook.get(i.webhookId) ?? []), i]);
    await mapLimit([...byWebhook], 3, async ([webhookId, rows]) => {
      const scan = scans.get(webhookId)!;
      const at = rows.map((r) => scan.messages.findIndex((m) => m.id === r.id));
      const [messages, deliveries] = await Promise.all([
        mapLimit(at, 6, (i) => withPayload(api, webhookId, scan.messages[i])),
        mapLimit(at, 6, (i) => withLastResponse(api, webhookId, scan.messages[i].id, scan.deliveries[i])),
      ]);
      const joined = await joinMessages(api, joinInput(scan, messages, deliveries));
      joined.forEach((m, k) => done.set(`${webhookId}\n${m.id}`, { ...m, webhookId, grant: problemGrant(messages[k]) }));
    });
    return page.map((i) => done.get(`${i.webhookId}\n${i.id}`) ?? i);
  }
}

type TScan = { webhook: TTimelineWebhook; messages: TMessage[]; deliveries: TJoinDelivery[]; asOf: Date };

/** The message with its payload (a list leaves it out); as listed when the service cannot say. */
async function withPayload(api: ConnectApi, webhookId: string, m: TMessage): Promise<TMessage> {
  if (m.payload !== undefined) return m;
  return api.getMessage(webhookId, m.id).catch(() => m);
}
