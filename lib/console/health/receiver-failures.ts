import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import { receiversOfDelivery } from '@/lib/console/timeline/join-delivery';
import type { TReceiver } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import type { TConsoleAddresses } from '@/lib/console/receivers/receiver-urls';
import type { TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import { receiptIdSince } from '@/lib/console/receivers/receipt-partitions';
import type { TReceiverSide } from './health-types';

// The receiver's side of health: per receiver, the arrivals since `since` whose signature did not
// verify or that were answered with a non-2xx. One statement for every receiver of the view: the
// window's whole hours from their hourly counts (console.receipt_trouble_hours, kept by triggers on
// the receipts: migration 0029), its first part-hour from the partial index on (receiver_id,
// received_at) of exactly those receipts — a week of failures costs what an hour of them does. No
// receipt row leaves the database and nothing is read per message. No 'server-only' marker: the
// worker's alert loop (plain Node) reads it too.

type TCounts = { failures: number; unverifiedAccepted: number; lastFailureAt: string | null };

const HOUR_MS = 3_600_000;

export async function receiverFailures(receiverIds: string[], since: Date): Promise<Map<string, TCounts>> {
  const ids = [...new Set(receiverIds)];
  if (!ids.length) return new Map();
  // The first whole hour (UTC) of the window: before it the receipts are counted, from it the hours.
  const wholeFrom = new Date(Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const from = since.toISOString();
  // The first id of the window's receipt partitions: only those are planned (receipt-partitions.ts).
  const firstId = await receiptIdSince(since);
  const rows = await queryRows<{ receiver_id: string; failures: number; unverified_accepted: number; last: Date | string | null }>(
    await getDb(),
    sql`select receiver_id, sum(failures)::int as failures, sum(unverified_accepted)::int as unverified_accepted, max(last_at) as last from (
          select h.receiver_id, h.failures, h.unverified_accepted, h.last_at from console.receipt_trouble_hours h
           where h.receiver_id = any(${sqlArray(ids, 'uuid')}) and h.hour >= ${wholeFrom}::timestamptz
          union all
          select r.receiver_id, count(*)::int, (count(*) filter (where r.response_status between 200 and 299))::int, max(r.received_at)
            from console.receipts r
           where r.receiver_id = any(${sqlArray(ids, 'uuid')}) and r.received_at >= ${from}::timestamptz and r.received_at < ${wholeFrom}::timestamptz and r.id >= ${firstId}::bigint
             and (r.verdict <> 'valid' or r.response_status not between 200 and 299)
           group by r.receiver_id
        ) x group by receiver_id`,
  );
  return new Map(
    rows.map((r) => [
      r.receiver_id,
      { failures: Number(r.failures), unverifiedAccepted: Number(r.unverified_accepted), lastFailureAt: r.last ? new Date(r.last).toISOString() : null },
    ]),
  );
}

/** The receiver of this console a webhook's URL reaches (or null), as the timeline finds it: by any address this app answers on. */
export function receiverOfWebhook(webhook: Pick<TTimelineWebhook, 'url'>, receivers: readonly TReceiver[], addresses: TConsoleAddresses): TReceiver | null {
  return receiversOfDelivery([], webhook.url, receivers, addresses)[0] ?? null;
}

/** The receiver side of each webhook, from one query over their receivers. */
export async function receiverSides(
  webhooks: readonly Pick<TTimelineWebhook, 'id' | 'url'>[],
  receivers: readonly TReceiver[],
  since: Date,
): Promise<Map<string, TReceiverSide | null>> {
  const addresses = await consoleAddresses();
  const of = new Map(webhooks.map((w) => [w.id, receiverOfWebhook(w, receivers, addresses)]));
  const counts = await receiverFailures(
    [...of.values()].flatMap((r) => (r ? [r.id] : [])),
    since,
  );
  return new Map(
    [...of].map(([id, r]) => [
      id,
      r ? { receiver: { id: r.id, name: r.name, slug: r.slug }, ...(counts.get(r.id) ?? { failures: 0, unverifiedAccepted: 0, lastFailureAt: null }) } : null,
    ]),
  );
}
