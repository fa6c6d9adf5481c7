import { and, desc, eq, sql } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb, type DbOrTx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { prefixedId } from '@/lib/ids';
import { wakeAfterCommit, wakingTransaction } from '@/lib/service/delivery/wake-workers';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { countInWindow, type TRecoverWindow, type TWindowCount } from './recover-window';
import { recoverRunJson, type TRecoverRunJson, type TRunKind } from './recover-run-json';

// EXT POST /v1/webhooks/{id}/recover (Svix's "recover"): every message of the window whose delivery
// to this webhook ended `failed`, and whose payload is still there, is re-queued for one manual re-send by the delivery worker. The
// re-queued deliveries carry the run's id, which is how the run's progress is counted and how a
// second identical request, while the first still has messages to send, gets the same run back.

const d = schema.deliveries;
const r = schema.recoverRuns;

// A failed delivery whose payload is gone (a donor erasure, retention) has nothing to send again: not counted, not re-queued.
const inWindow = (window: TRecoverWindow, end: Date) =>
  and(
    eq(d.status, 'failed'),
    sql`${d.createdAt} >= ${window.since.toISOString()}::timestamptz`,
    sql`${d.createdAt} < ${end.toISOString()}::timestamptz`,
    sql`not exists (select 1 from service.messages gone where gone.id = ${d.messageId} and gone.created_at = ${d.createdAt} and gone.payload_purged_at is not null)`,
  );

/** How many messages a recover of this window would re-send now (the console's preview). */
export function countRecoverable(accountId: string, webhookId: string, window: TRecoverWindow): Promise<TWindowCount> {
  return countInWindow(accountId, webhookId, window, (end) => and(eq(d.webhookId, webhookId), inWindow(window, end)));
}

/** A run of this kind for this webhook with the same window that still has messages to send, if any. */
export async function runningTwin(db: DbOrTx, webhookId: string, window: TRecoverWindow, kind: TRunKind = 'recover') {
  const [row] = await db
    .select()
    .from(r)
    .where(
      and(
        eq(r.webhookId, webhookId),
        eq(r.kind, kind),
        eq(r.since, window.since),
        window.until ? eq(r.until, window.until) : sql`${r.until} is null`,
        sql`exists (select 1 from service.deliveries x where x.recover_run_id = ${r.id} and x.status in ('pending', 'sending'))`,
      ),
    )
    .orderBy(desc(r.createdAt))
    .limit(1);
  return row ?? null;
}

/**
 * Starts a recover run (or returns the identical one still running) for the webhook. The webhook
 * row is locked for the transaction, so two requests at once cannot both re-queue the messages.
 */
export async function recoverMessages(
  accountId: string,
  webhookId: string,
  window: TRecoverWindow,
  clientId: string | null = null,
): Promise<{ run: TRecoverRunJson; created: boolean }> {
  const db = await getDb();
  const { row, created } = await wakingTransaction(async (tx) => {
    const webhook = await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
    if (webhook.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before recovering its failed messages.');
    const twin = await runningTwin(tx, webhookId, window);
    if (twin) return { row: twin, created: false };
    const id = prefixedId(ID_PREFIX.recoverRun);
    const [clock] = await queryRows<{ now: Date | string }>(tx, sql`select now() as now`);
    const end = window.until ?? new Date(clock.now);
    const requeued = await tx
      .update(d)
      .set({ status: 'pending', nextAttemptAt: sql`now()`, recoverRunId: id, leaseOwner: null, leaseUntil: null, updatedAt: sql`now()` })
      .where(and(eq(d.webhookId, webhookId), inWindow(window, end)))
      .returning({ id: d.id });
    const [inserted] = await tx
      .insert(r)
      .values({ id, accountId, webhookId, since: window.since, until: window.until, messages: requeued.length, createdAt: new Date(clock.now), clientId })
      .returning();
    if (requeued.length > 0) await wakeAfterCommit(tx);
    return { row: inserted, created: true };
  });
  return { run: await recoverRunJson(db, row), created };
}

/** One run of this account's webhook with its progress; unknown ids, other accounts' and other kinds' are a 404. */
export async function getRecoverRun(accountId: string, webhookId: string, runId: string, kind: TRunKind = 'recover'): Promise<TRecoverRunJson> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const [row] = await db
    .select()
    .from(r)
    .where(and(eq(r.id, runId), eq(r.webhookId, webhookId), eq(r.accountId, accountId), eq(r.kind, kind)));
  if (!row) throw new ApiError('not_found', `No ${kind} run with the id ${runId} for this webhook.`);
  return recoverRunJson(db, row);
}
