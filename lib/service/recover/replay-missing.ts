import { sql, type SQL } from 'drizzle-orm';
import { ID_PREFIX, TEST_EVENT_TAG } from '@/lib/constants';
import { getDb, type DbOrTx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { prefixedId } from '@/lib/ids';
import { enqueueExisting } from '@/lib/service/delivery/enqueue';
import { wakeAfterCommit, wakingTransaction } from '@/lib/service/delivery/wake-workers';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { runningTwin } from './recover-messages';
import { recoverRunJson, type TRecoverRunJson } from './recover-run-json';
import type { TRecoverWindow, TWindowCount } from './recover-window';

// EXT /v1/webhooks/{id}/replay-missing (Svix's "replay missing"): the messages of the account the
// webhook never got — made while it was disabled, when fan-out skips it — are sent to it now, once
// each, by a run like recover's (recover-messages.ts: the same table, progress and twin rule).
//
// A message is missing for the webhook when, in the window (on its creation time): it is of an event
// type the webhook subscribes to now, it was made once the webhook existed, it has no delivery to the
// webhook, it is not a test event (those are one webhook's) nor an operational event about this
// webhook (never sent to the webhook it is about), and its payload is still kept (not purged, not
// erased: there is nothing to send). Each becomes a delivery carrying the run's id, so the next
// preview no longer counts it and an overlapping window never sends it twice.
// The run reads its messages FOR KEY SHARE, as the foreign key's check did before migration 0045: retention's messages
// step (FOR UPDATE SKIP LOCKED) passes them by, and one it deleted first is not read, so no delivery outlives its message.

/** The missing messages of the window as a query (`id, event_type, created_at`). */
function missing(webhookId: string, window: TRecoverWindow, end: Date): SQL {
  return sql`select m.id, m.event_type, m.created_at
    from service.webhooks w
    join service.messages m on m.account_id = w.account_id
    where w.id = ${webhookId}
      and m.created_at >= greatest(${window.since.toISOString()}::timestamptz, w.created_at)
      and m.created_at < ${end.toISOString()}::timestamptz
      and m.event_type = any(w.event_types)
      and not (m.tags @> array[${TEST_EVENT_TAG}::text])
      and not (m.tags @> array['webhook:' || w.id])
      and m.payload_purged_at is null and m.erased_at is null
      and not exists (select 1 from service.deliveries d where d.message_id = m.id and d.webhook_id = w.id and d.created_at = m.created_at)`;
}

/** How many messages a replay of this window would send now (the preview). 404 for an unknown or another account's webhook. */
export async function countMissing(accountId: string, webhookId: string, window: TRecoverWindow): Promise<TWindowCount> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const end = window.until ?? new Date();
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from (${missing(webhookId, window, end)}) x`);
  return { messages: Number(row?.n ?? 0), since: window.since.toISOString(), until: end.toISOString() };
}

/** The statement that queues the missing messages of the window ending at `end` for run `runId`, each locked as it is read. */
export function queueMissing(accountId: string, webhookId: string, runId: string, window: TRecoverWindow, end: Date): SQL {
  return enqueueExisting({ accountId, webhookId, runId, messages: sql`${missing(webhookId, window, end)} for key share of m` });
}

async function startRun(db: DbOrTx, accountId: string, webhookId: string, window: TRecoverWindow, clientId: string | null) {
  const id = prefixedId(ID_PREFIX.recoverRun);
  const [clock] = await queryRows<{ now: Date | string }>(db, sql`select now() as now`);
  const end = window.until ?? new Date(clock.now);
  const queued = await queryRows<{ id: string }>(db, queueMissing(accountId, webhookId, id, window, end));
  const [inserted] = await db
    .insert(schema.recoverRuns)
    .values({
      id,
      accountId,
      webhookId,
      kind: 'replay-missing',
      since: window.since,
      until: window.until,
      messages: queued.length,
      createdAt: new Date(clock.now),
      clientId,
    })
    .returning();
  if (queued.length > 0) await wakeAfterCommit(db);
  return inserted;
}

/**
 * Starts a replay-missing run (or returns the identical one still sending). The webhook row is
 * locked for the transaction, so two requests at once cannot both queue the messages; a disabled
 * webhook is a 409 (enable it first: it would get nothing).
 */
export async function replayMissing(
  accountId: string,
  webhookId: string,
  window: TRecoverWindow,
  clientId: string | null = null,
): Promise<{ run: TRecoverRunJson; created: boolean }> {
  const db = await getDb();
  const { row, created } = await wakingTransaction(async (tx) => {
    const webhook = await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
    if (webhook.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before replaying the messages it missed.');
    const twin = await runningTwin(tx, webhookId, window, 'replay-missing');
    if (twin) return { row: twin, created: false };
    return { row: await startRun(tx, accountId, webhookId, window, clientId), created: true };
  });
  return { run: await recoverRunJson(db, row), created };
}
