import { appendArchive } from '@/lib/db/archive/write-archive';
import { archiveDir } from '@/lib/db/archive/archive-files';
import { listPartitions, type TPartition } from '@/lib/db/partitions/list-partitions';
import type { TPurgeStep } from '@/lib/db/purge-loop';
import { driverRows } from '@/lib/db/query';
import type { TLease } from '@/lib/db/take-lease';
import type { TRetentionOverride } from './account-retention';
import { ATTEMPTS_TABLE, partitionHolds, partitionsStep, sqlTime } from './drop-attempts';

// service.deliveries is partitioned by created_at (migration 0039), which is its message's: a partition holds the
// deliveries of the messages made in its range. Its rows past MESSAGE_RETENTION leave with their partition, in the pass's
// step after the attempts' (drop-attempts.ts), so the attempts of its range are gone first; archived (its deliveries'
// later answers), detached (CONCURRENTLY on PostgreSQL) and dropped, as the attempts' are. A killed pass is finished by
// the next (lib/db/partitions/manage-partitions.ts). The messages of those deliveries then leave with their partition in
// the step after (drop-messages.ts), which waits for the deliveries partitions of their range.
//
// What must stay keeps its partition, as for attempts: one with a delivery still pending or sending, or of an account
// whose own MESSAGE_RETENTION has not passed, is not dropped, and the retention page says why and until when
// (deliveryPartitionHolds). Its other rows leave row by row with their messages; once nothing in it must stay, it goes.
//
// Attempts have no foreign key to deliveries (migration 0039 says why), so no attempt may outlive its delivery: an attempt
// made after its delivery's partition's range (a retry past midnight, a resend weeks later) is in a later attempts
// partition, still there when this one goes. Before the drop those attempts are archived and deleted: they are the
// attempts of its deliveries updated since the oldest attempts partition left began (an attempt updates its delivery in
// the statement that writes it), read through the attempts' (webhook, message, time) index. For the same reason none of
// them is newer than its delivery's updated_at, nor than the latest of those: that bound keeps the statement to the
// attempts partitions up to the partition's last update (one or two), not every one left. Over all of them (a day's 20,000
// deliveries, 30 daily partitions) it took 262 ms beside ingest, the longest statement of the pass's drop window; 35 ms
// with the bound. Its plan is read in tests/integration/retention-partitions.test.ts.

export const DELIVERIES_TABLE = 'service.deliveries';
export const DELIVERIES_LEASE: TLease = { table: 'service.leases', name: 'partitions-service.deliveries' };

/** Clocks: an attempt's created_at is its sender's, its delivery's updated_at the database's. */
const CLOCK_MARGIN_MS = 3_600_000;
const CLOCK_MARGIN = `interval '${CLOCK_MARGIN_MS} milliseconds'`;

// The deliveries of `part` the messages step would keep: $1 the default's retention, $2/$3/$4 the accounts' own (ids, ms
// aligned as the messages step applies them, ms as set); $5 one account's alone (null: every account's). A delivery's
// created_at is its message's.
const HOLD = (part: TPartition) => `
  with d as (
    select d.account_id, d.created_at, o.ms, o.raw, d.status in ('pending', 'sending') as unresolved
      from ${part.name} d left join unnest($2::uuid[], $3::bigint[], $4::bigint[]) as o(account_id, ms, raw) on o.account_id = d.account_id)
  select count(*) filter (where unresolved)::int as pending,
         count(*) filter (where not unresolved)::int as "accountKept",
         max(created_at + raw * interval '1 millisecond') filter (where not unresolved) as until
    from d where (unresolved or created_at >= now() - coalesce(ms, $1::bigint) * interval '1 millisecond') and ($5::uuid is null or account_id = $5)`;

/** service.deliveries' partitions that stay, and why (the retention page, /metrics). */
export const deliveryPartitionHolds = partitionHolds(HOLD);

const ATTEMPT_COLUMNS = `a.id, a.account_id as "accountId", a.message_id as "messageId", a.webhook_id as "webhookId", a.created_at as "createdAt",
  a.response_status_code as "responseStatusCode", a.response, encode(sha256(convert_to(a.response, 'UTF8')), 'hex') as sha256`;

/**
 * The FROM and WHERE of the attempts of `part`'s deliveries made since `since` (the oldest attempts partition's start), none
 * newer than its delivery's last update, nor than `last` (the latest of those updates): the statement is planned over the
 * attempts partitions up to it, whichever join the planner picks.
 */
export function laterAttemptsOf(part: string, since: Date | null, last: Date): string {
  const from = sqlTime(since, '-infinity');
  return `from ${part} d join service.attempts a on a.webhook_id = d.webhook_id and a.message_id = d.message_id and a.delivery_id = d.id
    where d.updated_at >= ${from} - ${CLOCK_MARGIN} and ${attemptsBetween('a', since, last)} and a.created_at <= d.updated_at + ${CLOCK_MARGIN}`;
}

/**
 * The attempts (as `alias`) made since `since` and up to `last` and the margin: the bounds the planner prunes by, constants
 * (a time plus an interval is STABLE: the partitions out of it were planned, then removed as the statement ran).
 */
const attemptsBetween = (alias: string, since: Date | null, last: Date) =>
  `${alias}.created_at >= ${sqlTime(since, '-infinity')} and ${alias}.created_at <= ${sqlTime(new Date(last.getTime() + CLOCK_MARGIN_MS), 'infinity')}`;

/** The latest update since `since` of one of `part`'s deliveries (null: none, so none has an attempt past its range). */
export async function lastUpdateOf(part: string, since: Date | null): Promise<Date | null> {
  const [{ last }] = await driverRows<{ last: Date | string | null }>(
    `select max(updated_at) as last from ${part} where updated_at >= ${sqlTime(since, '-infinity')} - ${CLOCK_MARGIN}`,
    [],
  );
  return last === null ? null : new Date(last);
}

/** The attempts of `part`'s deliveries still in attempts' partitions (those made after its range): archived, then deleted. */
async function dropLaterAttempts(part: string): Promise<number> {
  const attempts = await listPartitions(ATTEMPTS_TABLE, { sizes: false });
  if (attempts.length === 0) return 0;
  const last = await lastUpdateOf(part, attempts[0].from);
  if (!last) return 0;
  const later = laterAttemptsOf(part, attempts[0].from, last);
  if (archiveDir()) {
    const answers = await driverRows<{ createdAt: Date | string } & Record<string, unknown>>(
      `select ${ATTEMPT_COLUMNS} ${later} and a.response_purged_at is null`,
      [],
    );
    await appendArchive(
      'attempts',
      answers.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString(), purged: 'row' })),
    );
  }
  const gone = await driverRows(deleteLaterAttemptsSql(part, attempts[0].from, last), []);
  return gone.length;
}

/** The delete of laterAttemptsOf, with its bounds again on the table deleted from: the join's alone left every partition planned. */
export const deleteLaterAttemptsSql = (part: string, since: Date | null, last: Date) =>
  `delete from service.attempts x using (select a.id, a.created_at ${laterAttemptsOf(part, since, last)}) g
    where x.id = g.id and x.created_at = g.created_at and ${attemptsBetween('x', since, last)} returning 1`;

/** The pass's second step: the partitions of deliveries past the row cutoff dropped, but those that hold what must stay. */
export const deliveryPartitionsStep = (rowsMs: number, overrides: TRetentionOverride[]): TPurgeStep =>
  partitionsStep(
    { what: 'delivery_partitions', table: DELIVERIES_TABLE, lease: DELIVERIES_LEASE, hold: HOLD, prepare: async (p) => void (await dropLaterAttempts(p.name)) },
    rowsMs,
    overrides,
  );
