import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { driverRows, queryRows } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import { messageSecondSql, receiptIdAtSql, receiptIdSince } from './receipt-partitions';

// The receivers' side of the problems view, by index (receipts_troubled_idx: receiver, time, id, only
// failed checks and error answers): a (message, receiver) is troubled when its newest arrival there
// failed the signature check or was answered with an error. Each receiver's index range is read on
// its own, so a page costs the same at any volume.

export type TTroubledReceipt = { id: number; receiverId: string; messageId: string; receivedAt: Date };
export type TReceiptKey = { t: string; id: string };

const TROUBLED_TEXT = `(r.verdict <> 'valid' or r.response_status not between 200 and 299)`;
// No later arrival of the same message at the same receiver: this one is how it stands. A look per row (OFFSET 0: not
// made a join by the planner), which the database prunes to the row's partition and later ones (g.id > r.id).
const NEWEST_TEXT = `not exists (select 1 from console.receipts g where g.message_id = r.message_id and g.receiver_id = r.receiver_id and g.id > r.id offset 0)`;
const TROUBLED = sql.raw(TROUBLED_TEXT);
const NEWEST = sql.raw(NEWEST_TEXT);
const ids = (receiverIds: string[]) => sqlArray(receiverIds, 'uuid');

/**
 * Troubled receipts at these receivers in [since, until), newest first, after `from` (received_at, id).
 * One ordered range per receiver, merged (a Merge Append): each is read only as far as the page
 * reaches, not `limit` rows of every receiver (a LATERAL per receiver did that, and each of those
 * rows costs a look for a later arrival of its message: 20 receivers read ~4,800 at 100k grants).
 * Prepared per number of receivers: planning the ranges took longer than reading them.
 */
export async function troubledReceiptsPage(
  receiverIds: string[],
  since: Date,
  until: Date,
  from: TReceiptKey | null,
  limit: number,
): Promise<TTroubledReceipt[]> {
  if (!receiverIds.length) return [];
  const n = receiverIds.length;
  const [sinceAt, untilAt, max, firstId, fromT, fromId] = [n + 1, n + 2, n + 3, n + 4, n + 5, n + 6].map((k) => `$${k}`);
  const below = from ? `and (r.received_at, r.id) < (${fromT}::timestamptz, ${fromId}::bigint)` : '';
  // The index's order, nulls and all (received_at and id are never null): the planner merges the
  // ranges only when each one's order is the outer one.
  const ranges = receiverIds.map(
    (_, k) => `(select r.id, r.receiver_id, r.message_id, r.received_at from console.receipts r
      where r.receiver_id = $${k + 1}::uuid and r.message_id is not null and ${TROUBLED_TEXT}
        and r.received_at >= ${sinceAt}::timestamptz and r.received_at < ${untilAt}::timestamptz and r.id >= ${firstId}::bigint ${below}
        and ${NEWEST_TEXT}
      order by r.received_at desc nulls last, r.id desc nulls last
      limit ${max}::int)`,
  );
  const rows = await driverRows<{ id: string | number; receiver_id: string; message_id: string; received_at: string | Date }>(
    `select t.* from (${ranges.join(' union all ')}) t order by t.received_at desc nulls last, t.id desc nulls last limit ${max}::int`,
    [...receiverIds, since.toISOString(), until.toISOString(), limit, await receiptIdSince(since), ...(from ? [from.t, Number(from.id)] : [])],
    `troubled-receipts-page-${n}${from ? '-after' : ''}`,
  );
  return rows.map((r) => ({ id: Number(r.id), receiverId: r.receiver_id, messageId: r.message_id, receivedAt: new Date(r.received_at) }));
}

// A verified arrival of the same message at the same receiver the receiver acknowledged before this
// one: the service's delivery settled there, so this copy is suspicious (reconcile.ts), not its story.
// Looked for from the message's time on (k.s: messageSecond() beside the row), so each row's look reads only the partitions
// from then, not all the older ones. OFFSET 0 keeps it a look per row (the planner would otherwise make it a join, reading
// every partition of the receiver's verified arrivals at once).
const afterVerified = async () =>
  sql.raw(
    `exists (select 1 from console.receipts g where g.message_id = r.message_id and g.receiver_id = r.receiver_id and g.id < r.id and g.id >= ${await receiptIdAtSql('k.s')} and g.verdict = 'valid' and g.response_status between 200 and 299 offset 0)`,
  );
const messageSecond = () => sql.raw(`cross join lateral (select ${messageSecondSql('r.message_id')} as s offset 0) k`);
type TCounts = Map<string, { count: number; capped: boolean }>;

/**
 * Per receiver, the messages whose newest arrival failed the signature check although it was
 * answered 2xx — the sender counts those delivered, so no sender-side count has them — exact up to
 * `cap`; not those the receiver had already verified (that copy is a suspicious arrival).
 */
export async function countAnsweredWithBadSignature(receiverIds: string[], since: Date, until: Date, cap: number): Promise<TCounts> {
  return countPerReceiver(
    receiverIds,
    cap,
    sql`select 1 from console.receipts r ${messageSecond()}
          where r.receiver_id = rid.id and r.message_id is not null and ${TROUBLED} and r.verdict <> 'valid' and r.response_status between 200 and 299
            and r.received_at >= ${since.toISOString()}::timestamptz and r.received_at < ${until.toISOString()}::timestamptz and r.id >= ${await receiptIdSince(since)}::bigint
            and ${NEWEST} and not ${await afterVerified()}`,
  );
}

/**
 * Per receiver, the messages with a suspicious arrival in [since, until): a copy whose signature check
 * failed, answered 2xx (what a receiver answers unless set otherwise for a drill), after a verified
 * arrival the receiver acknowledged; exact up to `cap`. Over receipts_unverified_accepted_idx, each
 * checked by the (message_id, receiver_id) index: not receipts_troubled_idx, whose error answers (a
 * week of 500s at 100k grants) would each be read to find none. A copy before the verified arrival,
 * or one answered an error, is told apart only with the service's attempts: the rows show it, no count does.
 */
export async function countSuspiciousArrivals(receiverIds: string[], since: Date, until: Date, cap: number): Promise<TCounts> {
  return countPerReceiver(
    receiverIds,
    cap,
    sql`select distinct r.message_id from console.receipts r ${messageSecond()}
          where r.receiver_id = rid.id and r.message_id is not null and r.verdict <> 'valid' and r.response_status between 200 and 299 and r.verdict <> 'no secret configured'
            and r.received_at >= ${since.toISOString()}::timestamptz and r.received_at < ${until.toISOString()}::timestamptz and r.id >= ${await receiptIdSince(since)}::bigint
            and ${await afterVerified()}`,
  );
}

async function countPerReceiver(receiverIds: string[], cap: number, rowsOf: ReturnType<typeof sql>): Promise<TCounts> {
  if (!receiverIds.length) return new Map();
  const rows = await queryRows<{ id: string; n: number }>(
    await getDb(),
    sql`select rid.id, (select count(*)::int from (${rowsOf} limit ${cap + 1}) x) as n from unnest(${ids(receiverIds)}) as rid(id)`,
  );
  return new Map(rows.map((r) => [r.id, { count: Math.min(Number(r.n), cap), capped: Number(r.n) > cap }]));
}
