import type { ConnectApi } from '@/lib/console/connect-api/client';
import type { TGrantDeliveryLine } from '@/lib/console/connect-api/grant-deliveries-schema';
import type { TWebhook } from '@/lib/console/connect-api/schemas';
import { listReceivers, type TReceiver } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import { receiptKey, receiptSummariesAt } from '@/lib/console/receivers/receipts-by-message';
import { receiverForUrl, type TConsoleAddresses } from '@/lib/console/receivers/receiver-urls';
import { claimArrivals, markDuplicates, type TSibling } from '@/lib/console/timeline/join-delivery';
import { reconcile, type TReconciliation } from '@/lib/console/timeline/reconcile';

// A day's grants × the account's webhooks, each pair named with the timeline's reconciliation
// vocabulary (lib/console/timeline/reconcile.ts): what the service says it sent and delivered (EXT
// GET /v1/grants/deliveries, one streamed request for the day) beside what this console's
// receivers stored and verified (receipts by message id, one query per batch). A webhook that
// should have had a grant (subscribed to grant.succeeded when it was made) and was never queued for
// it is `not-sent`. Rows are handed to `onRow` batch by batch, so the caller streams them.

export const GRANT_EVENT = 'grant.succeeded';
const BATCH = 500;

export type TReconRow = {
  grant: TGrantDeliveryLine;
  webhookId: string;
  /** The service's delivery, or null when it never queued the grant's message for this webhook. */
  delivery: TGrantDeliveryLine['deliveries'][number] | null;
  /** Whether the webhook's URL is one of this console's receivers (else received/verified are unknown). */
  observed: boolean;
  received: number;
  verified: boolean;
  state: TReconciliation;
};

export type TReconContext = {
  webhooks: Map<string, TWebhook>;
  addresses: TConsoleAddresses;
  /** Each webhook's receiver here, or null. */
  receiverOf: Map<string, TReceiver | null>;
  /** The webhooks reaching each receiver (to split a shared receiver's arrivals). */
  siblingsAt: Map<string, TSibling[]>;
};

/** Whether a pair is a difference: anything but delivered and received, or delivered to a receiver this console does not see. */
export function isDifference(row: Pick<TReconRow, 'state' | 'delivery'>): boolean {
  if (row.state === 'delivered-and-received') return false;
  if (row.state === 'not-observed' && row.delivery?.status === 'success') return false;
  return true;
}

export async function reconContext(api: ConnectApi): Promise<TReconContext> {
  const webhooks = new Map<string, TWebhook>();
  let pageToken: string | undefined;
  do {
    const page = await api.listWebhooks({ pageLimit: 100, pageToken });
    for (const w of page.results) webhooks.set(w.id, w);
    pageToken = page.nextPageToken;
  } while (pageToken);
  const [receivers, addresses] = await Promise.all([listReceivers(), consoleAddresses()]);
  const receiverOf = new Map([...webhooks.values()].map((w) => [w.id, receiverForUrl(w.url, receivers, addresses)]));
  const siblingsAt = new Map<string, TSibling[]>();
  for (const w of webhooks.values()) {
    const r = receiverOf.get(w.id);
    if (r) siblingsAt.set(r.id, [...(siblingsAt.get(r.id) ?? []), { id: w.id, url: w.url, eventTypes: w.eventTypes, createdAt: w.createdAt }]);
  }
  return { webhooks, addresses, receiverOf, siblingsAt };
}

/** The webhooks a grant should have reached: subscribed to its event when it was made (disabled ones too), and any it was queued for. */
function webhooksOf(grant: TGrantDeliveryLine, ctx: TReconContext): string[] {
  const ids = new Set(grant.deliveries.map((d) => d.webhookId));
  for (const w of ctx.webhooks.values()) {
    if ((w.eventTypes.length === 0 || w.eventTypes.includes(GRANT_EVENT)) && w.createdAt <= grant.messageTimestamp) ids.add(w.id);
  }
  return [...ids].sort();
}

async function reconcileBatch(grants: TGrantDeliveryLine[], ctx: TReconContext, asOf: Date, now: Date): Promise<TReconRow[]> {
  const observedIds = [...new Set([...ctx.receiverOf.values()].filter((r): r is TReceiver => r !== null).map((r) => r.id))];
  const receipts = await receiptSummariesAt(grants.map((g) => g.messageId), observedIds);
  const rows: TReconRow[] = [];
  for (const grant of grants) {
    for (const webhookId of webhooksOf(grant, ctx)) {
      const delivery = grant.deliveries.find((d) => d.webhookId === webhookId) ?? null;
      const webhook = ctx.webhooks.get(webhookId);
      const receiver = ctx.receiverOf.get(webhookId) ?? null;
      const atReceiver = delivery && receiver ? (receipts.get(receiptKey(grant.messageId, receiver.id)) ?? []) : [];
      // Arrivals at a receiver other webhooks reach too are split by the address they came to (join-delivery.ts).
      const { claimed, sharedUrlWith } = atReceiver.length
        ? claimArrivals({
            message: { eventType: GRANT_EVENT, timestamp: grant.messageTimestamp },
            ownUrls: webhook ? [webhook.url] : [],
            targets: receiver ? [receiver] : [],
            siblings: (ctx.siblingsAt.get(receiver!.id) ?? []).filter((s) => s.id !== webhookId),
            addresses: ctx.addresses,
            receipts: atReceiver,
          })
        : { claimed: atReceiver, sharedUrlWith: [] as string[] };
      const copies = 1 + sharedUrlWith.length;
      const summaries = markDuplicates(claimed, copies);
      const state = reconcile({
        delivery: delivery ? { status: delivery.status, attemptCount: delivery.attemptCount, lastResponseStatusCode: delivery.lastResponseStatusCode } : null,
        observed: receiver !== null,
        receipts: summaries,
        copies,
        asOf,
        now,
      });
      rows.push({ grant, webhookId, delivery, observed: receiver !== null, received: summaries.length, verified: summaries.some((r) => r.verdict === 'valid'), state });
    }
  }
  return rows;
}

/**
 * Opens the day: the account's webhooks, this console's receivers, and the service's stream of the
 * day's grants — what can fail before any row is written throws here, so the caller can answer
 * with a problem. `run` then hands each batch's rows to `onRows` (awaited: a slow writer slows the
 * reading) and closes the stream.
 */
export async function openDay(api: ConnectApi, range: { after: string; before: string; nonprofit?: string }) {
  const now = new Date();
  const [ctx, lines] = await Promise.all([reconContext(api), api.streamGrantDeliveries(range)]);
  return {
    webhooks: ctx.webhooks,
    close: () => lines.close(),
    async run(onRows: (rows: TReconRow[]) => Promise<void>): Promise<void> {
      try {
        const batches = lines.batches();
        let pending: TGrantDeliveryLine[] = [];
        for (;;) {
          const next = await batches.next();
          if (!next.done) pending.push(...next.value);
          if (pending.length >= BATCH || (next.done && pending.length)) {
            await onRows(await reconcileBatch(pending, ctx, now, now));
            pending = [];
          }
          if (next.done) break;
        }
      } finally {
        lines.close();
      }
    },
  };
}
