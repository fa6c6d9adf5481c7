import { driverRows } from '@/lib/db/query';
import { archivedStep, repairArchive, sealArchive } from '@/lib/db/archive/write-archive';
import { progressCte } from '@/lib/db/purge-progress';
import { advanceCursor, countAdvancing, cursorOf, fromCursor, newestOf } from '@/lib/db/purge-cursor';
import { purgeIdleMs, startPurgeLoop, stopPurgeLoop, type TPassState, type TPurgeStep } from '@/lib/db/purge-loop';
import { firstIdSince, listIdSpans } from '@/lib/db/partitions/id-slots';
import { startUpkeep, stopUpkeep, type TUpkeepSpec } from '@/lib/db/upkeep/upkeep-loop';
import { vacuumTables } from '@/lib/db/upkeep/vacuum-due';
import { env } from '@/lib/env';
import { ensureReceiptPartitions, receiptPartitioned } from '../receivers/receipt-partitions';
import { idsBefore, receiptInterval, receiptPartitionsStep, receiptRowsRetentionMs } from './drop-receipts';
import { SHARE_LINK_HOLD_SQL } from './holds';
import { CONSOLE_PURGE, consoleRetention, forgetStoredRetention, type TConsoleRetention } from './retention-settings';

// The console's retention (RECEIPT_BODY_RETENTION, RECEIPT_RETENTION, as an admin set them on /retention or
// the environment does: retention-settings.ts), in its own schema:
//   receipt_bodies  a receipt's body goes (its SHA-256 kept in body_sha256, its size in body_size)
//                   and its headers are cut to the few that name the delivery (KEPT_HEADERS);
//   receipts        the receipt row goes: its partition dropped whole once every row in it is past (drop-receipts.ts),
//                   row by row before that only what a retention shorter than a partition's interval reaches.
// A receipt's forwards (console.forwards, their replies) lose their reply bodies with its body, and
// go with its row (on delete cascade). The skeleton stays: ids, receiver, message id, method, path, address, verdict and reason,
// response status, size, SHA-256, times. The hold: a receipt that failed its check or was answered
// with an error (what the problems view shows) keeps its body until a later valid, acknowledged
// arrival of the same message at the same receiver resolves it, or RETENTION_HOLD_MAX passes.
// Each statement takes one batch (SKIP LOCKED) and counts it into console.retention_progress. With
// ARCHIVE_DIR, what a batch takes is first appended to receipts-<day>.ndjson.gz (lib/db/archive/write-archive.ts).

export { CONSOLE_PURGE };

/** The headers a purged receipt keeps: they name the delivery, and carry no donor data. */
export const KEPT_HEADERS = ['content-type', 'content-length', 'user-agent', 'webhook-id', 'webhook-timestamp', 'svix-id', 'svix-timestamp'];

const progress = (what: string) => progressCte('console', what);

/**
 * A CTE (`forward_replies`) that purges the forwards of the receipts `done` names (lib/console/forward):
 * their reply bodies go and the headers they sent are cut like their receipt's (`$kept`: KEPT_HEADERS).
 */
export const FORWARD_REPLIES = (receiptId: string, kept: string) => `
  forward_replies as (
    update console.forwards f
       set response_body = null,
           sent_headers = coalesce((select jsonb_agg(h) from jsonb_array_elements(f.sent_headers) h where lower(h->>0) = any(${kept}::text[])), '[]'::jsonb),
           body_purged_at = now()
      from done where f.receipt_id = ${receiptId} and f.body_purged_at is null returning 1)`;

/** Whether the receipt `r` is held (keeps its body past its retention); `$hold` is RETENTION_HOLD_MAX in ms. */
export const heldSql = (hold: string) => `
  (r.received_at > now() - ${hold}::bigint * interval '1 millisecond' and (
     ((r.verdict <> 'valid' or r.response_status not between 200 and 299)
      and not exists (
        select 1 from console.receipts later
         where later.message_id = r.message_id and later.receiver_id = r.receiver_id and later.id > r.id
           and later.verdict = 'valid' and later.response_status between 200 and 299))
     or ${SHARE_LINK_HOLD_SQL}))`;

// The ids a batch may take, as constants ($from, $end), so that it plans those partitions alone: partitioned by id, the
// table's every partition was planned (and read) for each batch, whose times bound nothing (a receipts body batch beside
// ingest took 44 ms to plan and 92 to run at 35 daily partitions). Bodies: from the partitions of the pass's cursor to
// those that may hold an arrival before the cutoff (idsBefore). Rows: from the first partition not closed before the cutoff
// (those closed before it go whole: drop-receipts.ts).
const DUE_BODIES = `r.body_purged_at is null and r.received_at < now() - $1::bigint * interval '1 millisecond' and not ${heldSql('$2')}`;
const bodyIds = (from: number, end: number) => `r.id >= $${from}::bigint and r.id < $${end}::bigint`;
const DUE_ROWS = `r.received_at < now() - $1::bigint * interval '1 millisecond' and r.id >= $3::bigint and r.id < $4::bigint`;

/** The purge of the receipts `batch` names; `$kept` holds KEPT_HEADERS. */
const bodies = (batch: string, kept: string) => `
  with batch as (${batch}),
  done as (
    update console.receipts r
       set body = null,
           body_json = null, -- no longer searchable (lib/console/search)
           body_sha256 = case when r.body is null then null else encode(sha256(r.body), 'hex') end,
           headers = coalesce((select jsonb_agg(h) from jsonb_array_elements(r.headers) h where lower(h->>0) = any(${kept}::text[])), '[]'::jsonb),
           body_purged_at = now()
      from batch where r.id = batch.id returning r.id, r.received_at as at),
  ${FORWARD_REPLIES('done.id', kept)},
  ${progressCte('console', 'receipt_bodies', { cursor: true })}`;
const rows = (batch: string) => `
  with batch as (${batch}),
  done as (delete from console.receipts r using batch where r.id = batch.id returning 1),
  ${progress('receipts')}`;

// From the pass's cursor (purge-cursor.ts): $5 here, $4 in SELECT_BODIES.
const BODIES = bodies(
  `select r.id from console.receipts r where ${DUE_BODIES} and ${fromCursor('r.received_at', 5)} and ${bodyIds(6, 7)} order by r.received_at limit $3 for update skip locked`,
  '$4',
);
const ROWS = rows(`select r.id from console.receipts r where ${DUE_ROWS} order by r.received_at limit $2 for update skip locked`);
// With ARCHIVE_DIR: the batch is read with what it holds, archived, then purged by its ids.
const ARCHIVED = `r.id, r.receiver_id as "receiverId", r.message_id as "messageId", r.received_at as "receivedAt", r.method, r.path, r.query,
  r.headers, encode(r.body, 'base64') as body, case when r.body is null then null else encode(sha256(r.body), 'hex') end as "bodySha256"`;
const SELECT_BODIES = `select ${ARCHIVED} from console.receipts r where ${DUE_BODIES} and ${fromCursor('r.received_at', 4)} and ${bodyIds(5, 6)}
  order by r.received_at limit $3`;
const SELECT_ROWS = `select ${ARCHIVED}, r.body_purged_at is not null as gone from console.receipts r where ${DUE_ROWS} order by r.received_at limit $2`;
const BODIES_OF = bodies('select r.id from console.receipts r where r.id = any($1::bigint[]) and r.body_purged_at is null for update skip locked', '$2');
const ROWS_OF = rows('select r.id from console.receipts r where r.id = any($1::bigint[]) for update skip locked');

type TArchivedReceipt = { id: number | string; receivedAt: Date | string; gone?: boolean } & Record<string, unknown>;
const record = ({ gone: _gone, ...r }: TArchivedReceipt, purged: 'body' | 'row') => ({
  kind: 'receipts' as const,
  record: { ...r, id: Number(r.id), receivedAt: new Date(r.receivedAt).toISOString(), purged },
});

/** Whether an archived receipt (a record as above: its body in base64) carries `email` (lower case) in its body or headers. */
export function archivedReceiptMentions(r: Record<string, unknown>, email: string): boolean {
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'base64').toString('utf8').toLowerCase() : '';
  return (
    body.includes(email) ||
    JSON.stringify(r.headers ?? '')
      .toLowerCase()
      .includes(email)
  );
}

async function count(text: string, params: unknown[]): Promise<number> {
  const [row] = await driverRows<{ n: number }>(text, params);
  return row?.n ?? 0;
}

// The settings in effect (an admin's, else the environment's), read at each tick; the idle wait between passes uses the last read.
let lastRead: TConsoleRetention | null = null;

export async function consolePurgeSteps(): Promise<TPurgeStep[]> {
  const r = (lastRead = await consoleRetention());
  // Rows wait for their partition when the retention is an interval or more (drop-receipts.ts).
  const rowsMs = receiptRowsRetentionMs(r.RECEIPT_RETENTION, await receiptInterval());
  // Read afresh each tick: a partition opened since a cached read would be left out of the bound.
  const spans = await listIdSpans(await receiptPartitioned());
  const firstId = firstIdSince(spans, new Date(Date.now() - r.RECEIPT_RETENTION));
  const [rowsEnd, bodiesEnd] = [idsBefore(spans, new Date(Date.now() - rowsMs)), idsBefore(spans, new Date(Date.now() - r.RECEIPT_BODY_RETENTION))];
  const bodiesFrom = (pass: TPassState) => {
    const cursor = cursorOf(pass, 'receipt_bodies');
    return cursor ? firstIdSince(spans, new Date(cursor)) : 0;
  };
  return [
    receiptPartitionsStep(r.RECEIPT_RETENTION),
    archivedStep(
      'receipt_bodies',
      (limit, pass) =>
        countAdvancing(pass, 'receipt_bodies', BODIES, [
          r.RECEIPT_BODY_RETENTION,
          r.RETENTION_HOLD_MAX,
          limit,
          KEPT_HEADERS,
          cursorOf(pass, 'receipt_bodies'),
          bodiesFrom(pass),
          bodiesEnd,
        ]),
      async (limit, pass) => {
        const due = await driverRows<TArchivedReceipt>(SELECT_BODIES, [
          r.RECEIPT_BODY_RETENTION,
          r.RETENTION_HOLD_MAX,
          limit,
          cursorOf(pass, 'receipt_bodies'),
          bodiesFrom(pass),
          bodiesEnd,
        ]);
        advanceCursor(pass, 'receipt_bodies', newestOf(due.map((d) => d.receivedAt)));
        return { ids: due.map((d) => d.id), records: due.map((d) => record(d, 'body')) };
      },
      (ids) => count(BODIES_OF, [ids, KEPT_HEADERS]),
    ),
    archivedStep(
      'receipts',
      (limit) => count(ROWS, [rowsMs, limit, firstId, rowsEnd]),
      async (limit) => {
        // A row whose body went before was archived then; one that still has it (held past its retention) is archived now.
        const due = await driverRows<TArchivedReceipt>(SELECT_ROWS, [rowsMs, limit, firstId, rowsEnd]);
        return { ids: due.map((d) => d.id), records: due.filter((d) => !d.gone).map((d) => record(d, 'row')) };
      },
      (ids) => count(ROWS_OF, [ids]),
    ),
  ];
}

async function onPass(event: 'start' | 'end', purged: number): Promise<void> {
  if (event === 'start') await repairArchive(['receipts']);
  else await sealArchive(['receipts']);
  const column = event === 'start' ? 'pass_started_at' : 'pass_ended_at';
  await driverRows(
    `insert into console.retention_progress as p (what, ${column}) values ('pass', now())
     on conflict (what) do update set ${column} = now()`,
    [],
  );
  // PGlite has no autovacuum: the space a pass freed comes back now (and the planner learns what is left), not at the next minute's upkeep.
  if (event === 'end' && purged > 0) await vacuumTables(['console.receipts', 'console.forwards']);
}

// The store's upkeep of the console's tables (lib/db/upkeep), started and stopped with the purge, in the same processes.
// console.receipts is partitioned by id (lib/console/receivers/receipt-partitions.ts).
const CONSOLE_UPKEEP: TUpkeepSpec = { name: 'upkeep-console', schema: 'console', partitioned: [], jobs: [() => ensureReceiptPartitions()] };

export function startConsolePurge(): void {
  startPurgeLoop({
    lease: CONSOLE_PURGE,
    steps: consolePurgeSteps,
    idleMs: () => purgeIdleMs(lastRead?.RECEIPT_BODY_RETENTION ?? env.RECEIPT_BODY_RETENTION, lastRead?.RECEIPT_RETENTION ?? env.RECEIPT_RETENTION),
    onPass,
    onChanged: forgetStoredRetention,
  });
  startUpkeep(CONSOLE_UPKEEP);
}

export const stopConsolePurge = () => Promise.all([stopPurgeLoop(CONSOLE_PURGE), stopUpkeep(CONSOLE_UPKEEP)]);
