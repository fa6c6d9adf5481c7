import type { ConnectApi } from '@/lib/console/connect-api/client';
import type { TGrantDeliveryLine } from '@/lib/console/connect-api/types';
import type { TWebhook } from '@/lib/console/connect-api/types';
import { listReceivers, type TReceiver } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import { receiptKey, receiptMarksAt, type TReceiptMark } from '@/lib/console/receivers/receipts-by-message';
import { receiverForUrl, type TConsoleAddresses } from '@/lib/console/receivers/receiver-urls';
import { claimArrivals, markDuplicates, type TSibling } from '@/lib/console/timeline/join-delivery';
import { reconcile, suspiciousArrivals, type TReconciliation } from '@/lib/console/timeline/reconcile';
import { withPausedBy } from '@/lib/console/webhooks/paused-by';
import { pausedSince } from '@/lib/console/webhooks/paused-words';
import { toWebhookView } from '@/lib/console/webhooks/webhook-view';

// A day's grants × the account's webhooks, each pair named with the timeline's reconciliation
// vocabulary (lib/console/timeline/reconcile.ts): what the service says it sent and delivered (EXT
// GET /v1/grants/deliveries, one streamed request for the day) beside what this console's
// receivers stored and verified (receipts by message id, one query per batch of BATCH grants, the
// next batch's asked for while the one before is joined and written). A webhook that should have had
// a grant (subscribed to grant.succeeded when it was made) and was never queued for it is
// `not-sent`. A grant no webhook was subscribed for has one row of its own (`no-webhook`, no
// difference), so every grant of the day is in the report. Rows are handed to `onRows` batch by
// batch, a grant's rows together, so the caller streams them.
//
// A day is ~300k pairs (issue 39: ≤ 10 s): each receipt is read as the least reconcile() needs
// (receiptMarksAt: no Dates, no duplicate check in SQL) and a pair at a receiver no other webhook
// reaches skips the split of arrivals by address.
//
// A paused webhook's undelivered grants (pending or sending) are `not-sent-yet` whatever their
// attempts before the pause, with why (`waiting`: "webhook paused since 14:02 UTC by ops@…"): they
// wait for the resume, and are no difference (issue 53.2).

export const GRANT_EVENT = 'grant.succeeded';
const BATCH = 500;

/** A row's state: the timeline's reconciliation, or `no-webhook` for a grant no webhook was subscribed for. */
export type TReconState = TReconciliation | 'no-webhook';

export type TReconRow = {
  grant: TGrantDeliveryLine;
  /** null: the grant's one row when no webhook was subscribed for it. */
  webhookId: string | null;
  /** The service's delivery, or null when it never queued the grant's message for this webhook. */
  delivery: TGrantDeliveryLine['deliveries'][number] | null;
  /** Whether the webhook's URL is one of this console's receivers (else received/verified are unknown). */
  observed: boolean;
  /** The service's arrivals (suspicious copies apart). */
  received: number;
  verified: boolean;
  /** Copies that did not verify beside a verified delivery: listed on their own, never the state. */
  suspicious: number;
  state: TReconState;
  /** Why it is not sent yet when its webhook is paused ("webhook paused since 14:02 UTC by ops@…"), else null. */
  waiting: string | null;
};

export type TReconContext = {
  webhooks: Map<string, TWebhook>;
  addresses: TConsoleAddresses;
  /** Each webhook's receiver here, or null. */
  receiverOf: Map<string, TReceiver | null>;
  /** The webhooks reaching each receiver (to split a shared receiver's arrivals). */
  siblingsAt: Map<string, TSibling[]>;
  /** The paused webhooks (not disabled), each with "webhook paused since … by …". */
  pausedNote: Map<string, string>;
};

/** Whether a pair is a difference: anything but delivered and received, delivered to a receiver this console does not see, or waiting behind a pause. */
export function isDifference(row: Pick<TReconRow, 'state' | 'delivery' | 'waiting'>): boolean {
  if (row.state === 'delivered-and-received' || row.state === 'no-webhook' || row.waiting) return false;
  if (row.state === 'not-observed' && row.delivery?.status === 'success') return false;
  return true;
}

export async function reconContext(api: ConnectApi): Promise<TReconContext> {
  const webhooks = new Map<string, TWebhook>();
  let pageToken: string | undefined;
  do {
    const page = await api.get('/v1/webhooks', { params: { query: { pageLimit: 100, pageToken } } });
    for (const w of page.results) webhooks.set(w.id, w);
    pageToken = page.nextPageToken;
  } while (pageToken);
  const paused = [...webhooks.values()].filter((w) => w.paused && w.pausedAt && !w.disabled).map(toWebhookView);
  const [receivers, addresses, pausedBy] = await Promise.all([listReceivers(), consoleAddresses(), withPausedBy(paused)]);
  const now = new Date();
  const pausedNote = new Map(pausedBy.map((v) => [v.id, `webhook ${pausedSince(v.pausedAt!, v.pausedBy, now)}`]));
  const receiverOf = new Map([...webhooks.values()].map((w) => [w.id, receiverForUrl(w.url, receivers, addresses)]));
  const siblingsAt = new Map<string, TSibling[]>();
  for (const w of webhooks.values()) {
    const r = receiverOf.get(w.id);
    if (r) siblingsAt.set(r.id, [...(siblingsAt.get(r.id) ?? []), { id: w.id, url: w.url, eventTypes: w.eventTypes, createdAt: w.createdAt }]);
  }
  return { webhooks, addresses, receiverOf, siblingsAt, pausedNote };
}

/** The webhooks a grant should have reached: subscribed to its event when it was made (disabled ones too), and any it was queued for. */
function webhooksOf(grant: TGrantDeliveryLine, ctx: TReconContext): string[] {
  const ids = new Set(grant.deliveries.map((d) => d.webhookId));
  for (const w of ctx.webhooks.values()) {
    if ((w.eventTypes.length === 0 || w.eventTypes.includes(GRANT_EVENT)) && w.createdAt <= grant.messageTimestamp) ids.add(w.id);
  }
  return [...ids].sort();
}

/** The receipts of a batch's messages at this console's receivers (one query a batch). */
function marksOf(grants: TGrantDeliveryLine[], ctx: TReconContext, since: Date): Promise<Map<string, TReceiptMark[]>> {
  const observedIds = [...new Set([...ctx.receiverOf.values()].filter((r): r is TReceiver => r !== null).map((r) => r.id))];
  return receiptMarksAt(
    grants.map((g) => g.messageId),
    observedIds,
    since,
  );
}

const NO_MARKS: TReceiptMark[] = [];

function reconcileBatch(grants: TGrantDeliveryLine[], receipts: Map<string, TReceiptMark[]>, ctx: TReconContext, asOf: Date, now: Date): TReconRow[] {
  const rows: TReconRow[] = [];
  for (const grant of grants) {
    const targets = webhooksOf(grant, ctx);
    if (!targets.length)
      rows.push({ grant, webhookId: null, delivery: null, observed: false, received: 0, verified: false, suspicious: 0, state: 'no-webhook', waiting: null });
    for (const webhookId of targets) {
      const delivery = grant.deliveries.find((d) => d.webhookId === webhookId) ?? null;
      const receiver = ctx.receiverOf.get(webhookId) ?? null;
      const atReceiver = delivery && receiver ? (receipts.get(receiptKey(grant.messageId, receiver.id)) ?? NO_MARKS) : NO_MARKS;
      // Arrivals at a receiver other webhooks reach too are split by the address they came to (join-delivery.ts).
      const siblings = atReceiver.length ? (ctx.siblingsAt.get(receiver!.id) ?? []).filter((s) => s.id !== webhookId) : [];
      const webhook = ctx.webhooks.get(webhookId);
      const { claimed, sharedUrlWith } = siblings.length
        ? claimArrivals({
            message: { eventType: GRANT_EVENT, timestamp: grant.messageTimestamp },
            ownUrls: webhook ? [webhook.url] : [],
            targets: [receiver!],
            siblings,
            addresses: ctx.addresses,
            receipts: atReceiver,
          })
        : { claimed: atReceiver, sharedUrlWith: [] as string[] };
      const copies = 1 + sharedUrlWith.length;
      const summaries = claimed.length ? markDuplicates(claimed, copies) : claimed;
      const flags = delivery && summaries.length > 1 ? suspiciousArrivals(summaries, delivery.attemptCount, copies) : null;
      const own = flags ? summaries.filter((_, i) => !flags[i]) : summaries;
      const waiting = delivery && (delivery.status === 'pending' || delivery.status === 'sending') ? (ctx.pausedNote.get(webhookId) ?? null) : null;
      const state = waiting
        ? 'not-sent-yet'
        : reconcile({
            delivery: delivery
              ? { status: delivery.status, attemptCount: delivery.attemptCount, lastResponseStatusCode: delivery.lastResponseStatusCode }
              : null,
            observed: receiver !== null,
            receipts: summaries,
            copies,
            asOf,
            now,
          });
      rows.push({
        grant,
        webhookId,
        delivery,
        observed: receiver !== null,
        received: own.length,
        verified: own.some((r) => r.verdict === 'valid'),
        suspicious: summaries.length - own.length,
        state,
        waiting,
      });
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
  // A grant's receipts arrive after it was made: only the receipt partitions from the day's start are read (an hour
  // earlier, for a service whose clock is not the console's).
  const receiptsSince = new Date(Date.parse(range.after) - 3_600_000);
  const [ctx, lines] = await Promise.all([reconContext(api), api.stream('/v1/grants/deliveries', { params: { query: range } })]);
  return {
    webhooks: ctx.webhooks,
    close: () => lines.close(),
    async run(onRows: (rows: TReconRow[]) => Promise<void>): Promise<void> {
      // Pipelined: a batch's receipts are asked for as soon as its lines are in, while the batch
      // before is joined and written, and the service streams on meanwhile.
      type TStep = { grants: TGrantDeliveryLine[]; marks: Promise<Map<string, TReceiptMark[]>> };
      const write = async (step: TStep) => onRows(reconcileBatch(step.grants, await step.marks, ctx, now, now));
      try {
        const batches = lines.batches();
        let pending: TGrantDeliveryLine[] = [];
        let previous: TStep | null = null;
        for (;;) {
          const next = await batches.next();
          if (!next.done) for (const line of next.value) pending.push(line);
          if (pending.length >= BATCH || (next.done && pending.length)) {
            const step: TStep = { grants: pending, marks: marksOf(pending, ctx, receiptsSince) };
            step.marks.catch(() => {}); // awaited in its turn, where a failure is thrown
            pending = [];
            if (previous) await write(previous);
            previous = step;
          }
          if (next.done) break;
        }
        if (previous) await write(previous);
      } finally {
        lines.close();
      }
    },
  };
}
