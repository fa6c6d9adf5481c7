import { appendArchive } from '@/lib/db/archive/write-archive';
import { archiveDir } from '@/lib/db/archive/archive-files';
import { listPartitions, type TPartition } from '@/lib/db/partitions/list-partitions';
import type { TPurgeStep } from '@/lib/db/purge-loop';
import { driverRows } from '@/lib/db/query';
import type { TLease } from '@/lib/db/take-lease';
import type { TRetentionOverride } from './account-retention';
import { partitionHolds, partitionsStep, sqlTime } from './drop-attempts';
import { DELIVERIES_TABLE } from './drop-deliveries';

// service.messages is partitioned by created_at (migration 0040), as its deliveries are (0039): a partition holds the
// messages made in its range, and their deliveries are in the deliveries partitions of the same range, which name it by
// (message_id, created_at). Its rows past MESSAGE_RETENTION leave with their partition in the pass's step after the
// deliveries' (drop-deliveries.ts), whose step has dropped those deliveries and, before them, the later attempts of
// them: a partition of messages is dropped only once no deliveries partition of its range is left (no foreign key holds
// them since migration 0045: this order keeps each delivery with its message). With the same bounds that is the same pass; the first
// partition (messages_p0, to 0040's upgrade) waits for the deliveries partition its end falls in, the rest of that day.
// Archived first (with ARCHIVE_DIR, the messages whose payload was not purged before, purged: row, as the messages step
// archives them), detached (CONCURRENTLY on PostgreSQL) and dropped; a killed pass is finished by the next
// (lib/db/partitions/manage-partitions.ts).
//
// What must stay keeps its partition, as for attempts and deliveries: a message with a delivery still pending or sending,
// or of an account whose own MESSAGE_RETENTION has not passed, keeps its partition (and then its deliveries' partition
// keeps it too), and the retention page says why and until when (messagePartitionHolds). Its other rows leave row by row
// in the messages step; once nothing in it must stay, it goes. Erasure updates every partition; the payload purge is
// row by row in every partition, as before.

export const MESSAGES_TABLE = 'service.messages';
export const MESSAGES_LEASE: TLease = { table: 'service.leases', name: 'partitions-service.messages' };

const ARCHIVE_PAGE = 1000;

// The messages of `part` the messages step would keep: $1 the default's retention, $2/$3/$4 the accounts' own (ids, ms
// aligned as the messages step applies them, ms as set); $5 one account's alone (null: every account's). A message's
// deliveries share its created_at, so they are read in the deliveries partitions of `part`'s range alone: bounded by the
// row's created_at only, the statement planned every deliveries partition, at each drop.
const HOLD = (part: TPartition) => `
  with m as (
    select m.account_id, m.created_at, o.ms, o.raw,
           exists (select 1 from service.deliveries d
                    where d.message_id = m.id and d.created_at = m.created_at and d.status in ('pending', 'sending')
                      and d.created_at >= ${sqlTime(part.from, '-infinity')} and d.created_at < ${sqlTime(part.to, 'infinity')}) as unresolved
      from ${part.name} m left join unnest($2::uuid[], $3::bigint[], $4::bigint[]) as o(account_id, ms, raw) on o.account_id = m.account_id)
  select count(*) filter (where unresolved)::int as pending,
         count(*) filter (where not unresolved)::int as "accountKept",
         max(created_at + raw * interval '1 millisecond') filter (where not unresolved) as until
    from m where (unresolved or created_at >= now() - coalesce(ms, $1::bigint) * interval '1 millisecond') and ($5::uuid is null or account_id = $5)`;

/** service.messages' partitions that stay, and why (the retention page, /metrics). */
export const messagePartitionHolds = partitionHolds(HOLD);

/** The hold's statement of a messages partition (its parameters holdOf's), for a test of what it plans. */
export const messageHoldSql = HOLD;

const MESSAGE_COLUMNS = `m.id, m.account_id as "accountId", m.event_type as "eventType", m.created_at as "createdAt", m.payload,
  encode(sha256(convert_to(m.payload, 'UTF8')), 'hex') as sha256`;

/** Whether `part` may go now: no deliveries partition that meets its range is left. Then its messages not purged before go to the archive. */
async function prepare(part: TPartition): Promise<boolean> {
  const [from, to] = [part.from?.getTime() ?? -Infinity, part.to!.getTime()];
  const meets = (d: TPartition) => !d.isDefault && (d.from === null || d.from.getTime() < to) && (d.to === null || d.to.getTime() > from);
  if ((await listPartitions(DELIVERIES_TABLE, { sizes: false })).some(meets)) return false;
  if (!archiveDir()) return true;
  for (let after = ''; ;) {
    const page = await driverRows<{ id: string; createdAt: Date | string } & Record<string, unknown>>(
      `select ${MESSAGE_COLUMNS} from ${part.name} m where m.payload_purged_at is null and m.id > $1 order by m.id limit ${ARCHIVE_PAGE}`,
      [after],
    );
    await appendArchive(
      'messages',
      page.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString(), purged: 'row' })),
    );
    if (page.length < ARCHIVE_PAGE) return true;
    after = page[page.length - 1].id;
  }
}

/** The pass's third step: the partitions of messages past the row cutoff dropped, after their deliveries', but those that hold what must stay. */
export const messagePartitionsStep = (rowsMs: number, overrides: TRetentionOverride[]): TPurgeStep =>
  partitionsStep({ what: 'message_partitions', table: MESSAGES_TABLE, lease: MESSAGES_LEASE, hold: HOLD, prepare }, rowsMs, overrides);
