import { and, gte, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { receipts } from '@/lib/db/schema/console';
import { receiversOfDelivery } from '@/lib/console/timeline/join-delivery';
import type { TReceiver } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import type { TConsoleAddresses } from '@/lib/console/receivers/receiver-urls';
import type { TTimelineWebhook } from '@/lib/console/timeline/timeline-types';
import type { TReceiverSide } from './health-types';

// The receiver's side of health: per receiver, the arrivals since `since` whose signature did not
// verify or that were answered with a non-2xx. One grouped statement for every receiver of the view,
// over the partial index on (receiver_id, received_at) of exactly those receipts; no receipt row
// leaves the database and nothing is read per message. No 'server-only' marker: the worker's alert
// loop (plain Node) reads it too.

type TCounts = { failures: number; unverifiedAccepted: number; lastFailureAt: string | null };

export async function receiverFailures(receiverIds: string[], since: Date): Promise<Map<string, TCounts>> {
  const ids = [...new Set(receiverIds)];
  if (!ids.length) return new Map();
  const db = await getDb();
  const rows = await db
    .select({
      receiverId: receipts.receiverId,
      failures: sql<number>`count(*)::int`,
      unverifiedAccepted: sql<number>`(count(*) filter (where ${receipts.responseStatus} between 200 and 299))::int`,
      last: sql<Date | string | null>`max(${receipts.receivedAt})`,
    })
    .from(receipts)
    .where(
      and(
        inArray(receipts.receiverId, ids),
        gte(receipts.receivedAt, since),
        sql`(${receipts.verdict} <> 'valid' or ${receipts.responseStatus} not between 200 and 299)`,
      ),
    )
    .groupBy(receipts.receiverId);
  return new Map(
    rows.map((r) => [r.receiverId, { failures: Number(r.failures), unverifiedAccepted: Number(r.unverifiedAccepted), lastFailureAt: r.last ? new Date(r.last).toISOString() : null }]),
  );
}

/** The receiver of this console a webhook's URL reaches (or null), as the timeline finds it: by any address this app answers on. */
export function receiverOfWebhook(webhook: Pick<TTimelineWebhook, 'url'>, receivers: readonly TReceiver[], addresses: TConsoleAddresses): TReceiver | null {
  return receiversOfDelivery([], webhook.url, receivers, addresses)[0] ?? null;
}

/** The receiver side of each webhook, from one query over their receivers. */
export async function receiverSides(webhooks: readonly Pick<TTimelineWebhook, 'id' | 'url'>[], receivers: readonly TReceiver[], since: Date): Promise<Map<string, TReceiverSide | null>> {
  const addresses = await consoleAddresses();
  const of = new Map(webhooks.map((w) => [w.id, receiverOfWebhook(w, receivers, addresses)]));
  const counts = await receiverFailures([...of.values()].flatMap((r) => (r ? [r.id] : [])), since);
  return new Map(
    [...of].map(([id, r]) => [
      id,
      r ? { receiver: { id: r.id, name: r.name, slug: r.slug }, ...(counts.get(r.id) ?? { failures: 0, unverifiedAccepted: 0, lastFailureAt: null }) } : null,
    ]),
  );
}
