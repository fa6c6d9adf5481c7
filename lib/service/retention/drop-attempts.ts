import { appendArchive } from '@/lib/db/archive/write-archive';
import { archiveDir } from '@/lib/db/archive/archive-files';
import { dbKind } from '@/lib/db/client';
import { intervalStart, nextBoundary, partitionInterval, type TPartitionInterval } from '@/lib/db/partitions/interval';
import type { TPartition } from '@/lib/db/partitions/list-partitions';
import { dropPartitionsBefore } from '@/lib/db/partitions/manage-partitions';
import type { TPurgeStep } from '@/lib/db/purge-loop';
import { driverRows } from '@/lib/db/query';
import type { TLease } from '@/lib/db/take-lease';
import { ID_CLOCK_SLACK_MS } from '@/lib/ids';
import type { TRetentionOverride } from './account-retention';

// service.attempts' rows past MESSAGE_RETENTION leave with their partition (issue 52): a partition whose whole range
// ended before the deployment's row cutoff is archived (with ARCHIVE_DIR, the answers not purged before, as the
// messages step archives them), detached (CONCURRENTLY on PostgreSQL) and dropped — the first step of a pass, so the
// messages step that follows finds their attempts gone and deletes only the messages and deliveries, row by row (they
// are not partitioned). A killed pass is finished by the next (lib/db/partitions/manage-partitions.ts).
//
// What must stay keeps its partition: a partition holding an attempt of a message the messages step would not delete —
// one with a delivery still pending or sending, or of an account whose own MESSAGE_RETENTION has not passed — is not
// dropped, and the retention page says why and until when (attemptPartitionHolds). Its other rows leave row by row with
// their messages, as before partitions; once the last held message goes, the partition is empty and dropped. Kept in
// place rather than moved aside: every read (a message's attempts, erasure, the stats) finds the held rows where they
// were, there is no second table to read nor a moment they are in neither, and with the default year a held row is rare.
//
// The message's rows wait for its attempts' partition: a retention of at least one interval is counted to the start of
// the interval its cutoff falls in (alignedRetentionMs), so rows leave at most a day (PostgreSQL) or a week (PGlite)
// after their time, and not row by row the day before their partition would have gone whole.

export const ATTEMPTS_TABLE = 'service.attempts';
export const ATTEMPTS_LEASE: TLease = { table: 'service.leases', name: 'partitions-service.attempts' };

const DAY = 86_400_000;
const INTERVAL_MS: Record<TPartitionInterval, number> = { day: DAY, week: 7 * DAY, month: 28 * DAY };
/**
 * A step drops partitions for at most this long; the rest go at the next pass (what the rows step takes meanwhile goes row by
 * row). An object so a test can lift it: its counts of what the drops took depend on every due partition going in one pass.
 */
export const DROP_BUDGET = { ms: 1000 };
const ARCHIVE_PAGE = 1000;

/** `ms` as the messages step applies it: lengthened to the start of its cutoff's interval when it is at least one interval. */
export function alignedRetentionMs(ms: number, interval: TPartitionInterval, now = Date.now()): number {
  if (ms < INTERVAL_MS[interval]) return ms;
  return now - intervalStart(new Date(now - ms), interval).getTime();
}

/** A time as a SQL constant (the planner prunes partitions by it), or `none` for null. */
export const sqlTime = (t: Date | null, none: 'infinity' | '-infinity') => `'${t ? t.toISOString() : none}'::timestamptz`;

/** Why a partition past the cutoff stays: messages with a delivery not resolved, messages an account keeps longer (until when). */
export type TPartitionHold = { partition: string; pending: number; accountKept: number; until: Date | null };

// The messages of `part`'s attempts that the messages step would keep: $1 the default's retention, $2/$3 the accounts'
// own (ms, aligned as the messages step applies them; and as set, for when the last is due); $5 one account's alone (null:
// every account's). Read in the messages partitions up to the end of `part`'s range and the clocks' slack only (a message
// is made before its attempts; an attempt's created_at is its sender's: lib/ids.ts), each message's deliveries by its created_at
// (theirs): over every partition of both, the oldest attempts partition's hold planned 125 partitions at 62 days. The bound
// is a constant: a time plus an interval is not (the operator is STABLE), so the partitions out of it were removed when the
// statement ran, every one of them planned first (a drop's hold took 70 ms to plan beside ingest).
const HOLD = (part: TPartition) => {
  const before = sqlTime(part.to && new Date(part.to.getTime() + ID_CLOCK_SLACK_MS), 'infinity');
  return `
  with m as (
    select m.id, m.account_id, m.created_at, o.ms, o.raw,
           exists (select 1 from service.deliveries d
                    where d.message_id = m.id and d.created_at = m.created_at and d.created_at < ${before}
                      and d.status in ('pending', 'sending')) as unresolved
      from (select distinct message_id from ${part.name}) a
      join service.messages m on m.id = a.message_id and m.created_at < ${before}
      left join unnest($2::uuid[], $3::bigint[], $4::bigint[]) as o(account_id, ms, raw) on o.account_id = m.account_id)
  select count(*) filter (where unresolved)::int as pending,
         count(*) filter (where not unresolved)::int as "accountKept",
         max(created_at + raw * interval '1 millisecond') filter (where not unresolved) as until
    from m where (unresolved or created_at >= now() - coalesce(ms, $1::bigint) * interval '1 millisecond') and ($5::uuid is null or account_id = $5)`;
};

type TRules = { interval: TPartitionInterval; rowsMs: number; overrides: TRetentionOverride[] };

/** Why `part` stays by `hold` (its query; $5: one account's rows alone, for that account's eyes), or null: it may go. */
export async function holdOf(
  hold: (part: TPartition) => string,
  part: TPartition,
  rules: TRules,
  accountId: string | null = null,
): Promise<TPartitionHold | null> {
  const own = rules.overrides.filter((o) => o.rowsMs !== null);
  const [h] = await driverRows<{ pending: number; accountKept: number; until: Date | string | null }>(hold(part), [
    alignedRetentionMs(rules.rowsMs, rules.interval),
    own.map((o) => o.accountId),
    own.map((o) => alignedRetentionMs(o.rowsMs!, rules.interval)),
    own.map((o) => o.rowsMs!),
    accountId,
  ]);
  if (!h || (h.pending === 0 && h.accountKept === 0)) return null;
  // Until: the last held message's own retention, then the end of that interval when the messages step counts to interval
  // starts (a retention of an interval or more); unknown while a delivery waits.
  const counted = own.every((o) => o.rowsMs! >= INTERVAL_MS[rules.interval]);
  const last = h.until ? new Date(h.until) : null;
  const until = h.pending === 0 && last ? (counted ? nextBoundary(last, rules.interval) : last) : null;
  return { partition: part.name, pending: h.pending, accountKept: h.accountKept, until };
}

const ATTEMPT_COLUMNS = `a.id, a.account_id as "accountId", a.message_id as "messageId", a.webhook_id as "webhookId", a.created_at as "createdAt",
  a.response_status_code as "responseStatusCode", a.response, encode(sha256(convert_to(a.response, 'UTF8')), 'hex') as sha256`;

/** With ARCHIVE_DIR, the partition's answers not purged before go to the archive first, as the messages step's do (purged: row). */
async function archiveAnswers(part: string): Promise<void> {
  if (!archiveDir()) return;
  for (let after = ''; ;) {
    const page = await driverRows<{ id: string; createdAt: Date | string } & Record<string, unknown>>(
      `select ${ATTEMPT_COLUMNS} from ${part} a where a.response_purged_at is null and a.id > $1 order by a.id limit ${ARCHIVE_PAGE}`,
      [after],
    );
    await appendArchive(
      'attempts',
      page.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString(), purged: 'row' })),
    );
    if (page.length < ARCHIVE_PAGE) return;
    after = page[page.length - 1].id;
  }
}

/** The rules in effect now: the store's interval, the default's rows retention, the accounts' own. */
export async function attemptRules(rowsMs: number, overrides: TRetentionOverride[]): Promise<TRules> {
  return { interval: partitionInterval(await dbKind()), rowsMs, overrides };
}

/** A table's partitions past the default's cutoff that `hold` keeps, and why (the retention page, /metrics). */
export function partitionHolds(hold: (part: TPartition) => string) {
  return async (rules: TRules, parts: TPartition[], accountId: string | null = null): Promise<TPartitionHold[]> => {
    const cutoff = Date.now() - rules.rowsMs;
    const holds: TPartitionHold[] = [];
    for (const p of parts.filter((p) => p.to !== null && p.to.getTime() <= cutoff && !p.detachPending && !p.isDefault)) {
      const h = await holdOf(hold, p, rules, accountId);
      if (h) holds.push(h);
    }
    return holds;
  };
}

/** The hold's statement of an attempts partition (its parameters holdOf's), for a test of what it plans. */
export const attemptHoldSql = HOLD;

/** service.attempts' partitions that stay, and why. */
export const attemptPartitionHolds = partitionHolds(HOLD);

/** A pass's step over `table`: its partitions past the row cutoff dropped (`prepare` run on each first: its archive, what
 * must go before it; false: not yet), but those `hold` keeps; the rows dropped counted in retention_progress under `what`. */
export function partitionsStep(
  spec: { what: string; table: string; lease: TLease; hold: (part: TPartition) => string; prepare: (part: TPartition) => Promise<boolean | void> },
  rowsMs: number,
  overrides: TRetentionOverride[],
): TPurgeStep {
  return {
    what: spec.what,
    whole: true,
    run: async () => {
      const rules = await attemptRules(rowsMs, overrides);
      let rows = 0;
      const started = Date.now();
      const dropped = await dropPartitionsBefore({ table: spec.table, interval: rules.interval, lease: spec.lease }, new Date(Date.now() - rowsMs), {
        budgetMs: DROP_BUDGET.ms,
        prepare: async (part) => {
          if (await holdOf(spec.hold, part, rules)) return false;
          if ((await spec.prepare(part)) === false) return false;
          const [{ n }] = await driverRows<{ n: number }>(`select count(*)::int as n from ${part.name}`, []);
          rows += n;
          return true;
        },
      });
      // Its budget ran out: there may be more (a run that then finds none is cheap).
      const more = Date.now() - started >= DROP_BUDGET.ms;
      if (!dropped?.length) return { purged: 0, more: false };
      await driverRows(
        `insert into service.retention_progress as p (what, purged, last_purge_at) values ($2, $1, now())
         on conflict (what) do update set purged = p.purged + excluded.purged, last_purge_at = excluded.last_purge_at`,
        [rows, spec.what],
      );
      return { purged: rows, more };
    },
  };
}

/** The pass's first step: the partitions of attempts past the row cutoff dropped, but those that hold what must stay. */
export const attemptPartitionsStep = (rowsMs: number, overrides: TRetentionOverride[]): TPurgeStep =>
  partitionsStep(
    { what: 'attempt_partitions', table: ATTEMPTS_TABLE, lease: ATTEMPTS_LEASE, hold: HOLD, prepare: (p) => archiveAnswers(p.name) },
    rowsMs,
    overrides,
  );
