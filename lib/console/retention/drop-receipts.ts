import { appendArchive } from '@/lib/db/archive/write-archive';
import { archiveDir } from '@/lib/db/archive/archive-files';
import { dbKind } from '@/lib/db/client';
import { dropIdPartitionsBefore, listIdSpans, type TIdSpan } from '@/lib/db/partitions/id-slots';
import { intervalStart, partitionInterval, type TPartitionInterval } from '@/lib/db/partitions/interval';
import type { TPurgeStep } from '@/lib/db/purge-loop';
import { driverRows } from '@/lib/db/query';
import { ID_CLOCK_SLACK_MS } from '@/lib/ids';
import { receiptPartitioned } from '../receivers/receipt-partitions';

// console.receipts' rows past RECEIPT_RETENTION leave with their partition (issue 52): a partition closed before the
// cutoff (every receipt in it arrived before its close: lib/db/partitions/id-slots.ts) is archived (with ARCHIVE_DIR,
// the receipts whose body was not purged before, as the rows step archives them), its forwards deleted (their foreign
// key refuses the detach while they are there; the rows step's cascade deleted them too), detached (CONCURRENTLY on
// PostgreSQL) and dropped — the first step of the console's pass. The rules are those of the rows step, unchanged: a
// receipt's row goes at RECEIPT_RETENTION whatever holds its body (share links and troubled arrivals hold bodies, up to
// RETENTION_HOLD_MAX, not rows), so no partition past the cutoff is kept. The hourly counts of troubled arrivals
// (receipt_trouble_hours, kept by triggers a drop does not fire) lose the hours before the partition's close, and the
// hour it closed in is counted again from the receipts left.
//
// The rows step waits for the partitions: a retention of an interval or more counts to the start of the interval an
// hour before its cutoff (receiptRowsRetentionMs), so a partition's rows are not deleted one by one in the minutes
// before it goes whole; receipts leave at most an interval and an hour after their time.

const DAY = 86_400_000;
const INTERVAL_MS: Record<TPartitionInterval, number> = { day: DAY, week: 7 * DAY, month: 28 * DAY };
const HOUR = 3_600_000;
/** A step drops partitions for at most this long; the rest go at the next pass. */
const BUDGET_MS = 1000;
const ARCHIVE_PAGE = 1000;

/** RECEIPT_RETENTION as the rows step applies it: lengthened to the start of the interval an hour before its cutoff, when it is at least one interval. */
export function receiptRowsRetentionMs(ms: number, interval: TPartitionInterval, now = Date.now()): number {
  if (ms < INTERVAL_MS[interval]) return ms;
  return now - intervalStart(new Date(now - ms - HOUR), interval).getTime();
}

export async function receiptInterval(): Promise<TPartitionInterval> {
  return partitionInterval(await dbKind());
}

const ARCHIVED = `r.id, r.receiver_id as "receiverId", r.message_id as "messageId", r.received_at as "receivedAt", r.method, r.path, r.query,
  r.headers, encode(r.body, 'base64') as body, case when r.body is null then null else encode(sha256(r.body), 'hex') end as "bodySha256"`;

/** With ARCHIVE_DIR, the partition's receipts whose body was not purged before go to the archive first (purged: row). */
async function archiveReceipts(part: string): Promise<void> {
  if (!archiveDir()) return;
  for (let after = 0; ;) {
    const page = await driverRows<{ id: string | number; receivedAt: Date | string } & Record<string, unknown>>(
      `select ${ARCHIVED} from ${part} r where r.body_purged_at is null and r.id > $1 order by r.id limit ${ARCHIVE_PAGE}`,
      [after],
    );
    await appendArchive(
      'receipts',
      page.map((r) => ({ ...r, id: Number(r.id), receivedAt: new Date(r.receivedAt).toISOString(), purged: 'row' })),
    );
    if (page.length < ARCHIVE_PAGE) return;
    after = Number(page[page.length - 1].id);
  }
}

// The hours before the dropped partition's close are gone; the hour it closed in counted again from what is left. $2, $3:
// the ids of the partitions that may hold an arrival of that hour (hourIds), so that it plans those, not every one.
const RECOUNT_HOURS = `
  with gone as (delete from console.receipt_trouble_hours where hour <= console.trouble_hour($1::timestamptz) returning 1)
  insert into console.receipt_trouble_hours (receiver_id, hour, failures, unverified_accepted, last_at)
  select receiver_id, console.trouble_hour(received_at), count(*)::int, (count(*) filter (where response_status between 200 and 299))::int, max(received_at)
    from console.receipts
   where received_at >= console.trouble_hour($1::timestamptz) and received_at < console.trouble_hour($1::timestamptz) + interval '1 hour' and id >= $2::bigint and id < $3::bigint
     and (verdict <> 'valid' or response_status not between 200 and 299) and (select count(*) from gone) >= 0
   group by 1, 2
  on conflict (receiver_id, hour) do update set failures = excluded.failures, unverified_accepted = excluded.unverified_accepted, last_at = excluded.last_at`;

/** RECOUNT_HOURS, for a test of what it plans ($1 the dropped partition's close, $2 and $3 hourIds of it). */
export const recountHoursSql = RECOUNT_HOURS;

/**
 * Whether partition `s` may hold an arrival from before `t` (ms): opened before it and the clocks' slack (an arrival may take
 * its id from the next partition, opened just after it came), or the first (never opened, but closed). Made ahead (neither
 * opened nor closed): nothing in it yet.
 */
const mayHoldBefore = (s: TIdSpan, t: number) => (s.openedAt === null ? s.closedAt !== null : s.openedAt.getTime() < t + ID_CLOCK_SLACK_MS);

/**
 * The ids of the partitions that may hold an arrival in the hour `at` falls in: closed after its start (a partition's arrivals
 * all came before its close), and mayHoldBefore its end. Constants the planner prunes by; 0 to 0 when none.
 */
export function hourIds(spans: TIdSpan[], at: Date): { from: number; to: number } {
  const hour = Math.floor(at.getTime() / HOUR) * HOUR;
  const may = spans.filter((s) => (s.closedAt === null || s.closedAt.getTime() > hour) && mayHoldBefore(s, hour + HOUR));
  return may.length ? { from: Math.min(...may.map((s) => s.firstId)), to: Math.max(...may.map((s) => s.endId)) } : { from: 0, to: 0 };
}

/** The first id past the partitions that mayHoldBefore `until` (spans read afresh: one opened since a cached read would be left out). */
export function idsBefore(spans: TIdSpan[], until: Date): number {
  const may = spans.filter((s) => mayHoldBefore(s, until.getTime()));
  return may.length ? Math.max(...may.map((s) => s.endId)) : 0;
}

/** The pass's first step: the partitions of receipts closed before the row cutoff, dropped. */
export function receiptPartitionsStep(rowsMs: number): TPurgeStep {
  return {
    what: 'receipt_partitions',
    whole: true,
    run: async () => {
      let rows = 0;
      const started = Date.now();
      const p = await receiptPartitioned();
      const dropped: TIdSpan[] | null = await dropIdPartitionsBefore(p, new Date(Date.now() - rowsMs), {
        budgetMs: BUDGET_MS,
        prepare: async (span) => {
          const part = `console.${span.name}`;
          await archiveReceipts(part);
          await driverRows(`delete from console.forwards f using ${part} r where f.receipt_id = r.id`, []);
          const [{ n }] = await driverRows<{ n: number }>(`select count(*)::int as n from ${part}`, []);
          rows += n;
          return true;
        },
      });
      // Its budget ran out: there may be more (a run that then finds none is cheap).
      const more = Date.now() - started >= BUDGET_MS;
      if (!dropped?.length) return { purged: 0, more: false };
      const last = dropped.reduce((a, b) => ((a.closedAt?.getTime() ?? 0) > (b.closedAt?.getTime() ?? 0) ? a : b));
      if (last.closedAt) {
        const { from, to } = hourIds(await listIdSpans(p), last.closedAt);
        await driverRows(RECOUNT_HOURS, [last.closedAt.toISOString(), from, to]);
      }
      await driverRows(
        `insert into console.retention_progress as p (what, purged, last_purge_at) values ('receipt_partitions', $1, now())
         on conflict (what) do update set purged = p.purged + excluded.purged, last_purge_at = excluded.last_purge_at`,
        [rows],
      );
      return { purged: rows, more };
    },
  };
}
