import { driverRows } from '@/lib/db/client';
import { isStoreUnavailable } from '@/lib/db/store-availability';
import { processSingleton } from '@/lib/process-singleton';

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

type TLoop = { stopped: boolean; running: Promise<void> | null; wake: () => void };
const state = processSingleton('rollup-backfill', (): { loop?: TLoop } => ({}));

/** Runs batches until none is left (a pause between them keeps it in the background); then ends. */
export function startRollupBackfill(): void {
  if (state.loop && !state.loop.stopped) return;
  const loop: TLoop = { stopped: false, running: null, wake: () => {} };
  state.loop = loop;
  loop.running = (async () => {
    let total = 0;
    for (;;) {
      if (loop.stopped) return;
      const n = await backfillRollupsOnce().catch((err: Error) => {
        // The store going away is logged once by the store's availability; this just waits for it.
        if (!isStoreUnavailable(err)) console.warn(`stats rollup backfill: ${err.message}; trying again in 10 s`);
        return -1;
      });
      if (n === 0) break;
      if (n > 0) total += n;
      await new Promise<void>((resolve) => {
        loop.wake = resolve;
        setTimeout(resolve, n < 0 ? 10_000 : 50).unref();
      });
    }
    if (total > 0) console.log(`stats rollups: ${total} earlier attempts added`);
  })();
}

/** Stops between batches (a batch under way finishes: it is one statement). */
export async function stopRollupBackfill(): Promise<null | undefined> {
  const loop = state.loop;
  if (!loop || loop.stopped) return null;
  loop.stopped = true;
  loop.wake();
  await loop.running;
}
