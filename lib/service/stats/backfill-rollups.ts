import { driverRows } from '@/lib/db/query';
import { startBatchLoop, stopBatchLoop } from '@/lib/db/batch-loop';

// Attempts stored before migration 0012 are added to service.attempt_rollups here, a batch at a
// time: each batch marks its attempts rolled up and adds them in one statement, so a batch is
// counted once whatever stops the process, and the next start resumes where it ended. Several
// processes may run it side by side (SKIP LOCKED). The stats read the attempts themselves for a
// webhook until none of its attempts is left (rollupsComplete).

export const BACKFILL_BATCH = 5000;

const BATCH = `
  with batch as (
    select id from service.attempts where not rolled_up limit $1 for update skip locked),
  marked as (
    update service.attempts a set rolled_up = true from batch where a.id = batch.id
    returning a.webhook_id, a.created_at, a.status, a.response_duration_ms)
  select count(*)::int as n,
         service.add_to_attempt_rollups(array_agg(webhook_id), array_agg(created_at), array_agg(status = 'success'), array_agg(response_duration_ms)) is null as added
    from marked`;

/** One batch; how many attempts it added (0: nothing left, or all of it taken by another process). */
export async function backfillRollupsOnce(batch = BACKFILL_BATCH): Promise<number> {
  const [row] = await driverRows<{ n: number }>(BATCH, [batch]);
  return row?.n ?? 0;
}

const NAME = 'stats rollup backfill';

/** Runs batches until none is left (a pause between them keeps it in the background); then ends. */
export const startRollupBackfill = () =>
  startBatchLoop(
    NAME,
    () => backfillRollupsOnce(),
    (total) => `stats rollups: ${total} earlier attempts added`,
  );
/** Stops between batches (a batch under way finishes: it is one statement). */
export const stopRollupBackfill = () => stopBatchLoop(NAME);
