import { and, eq, isNull } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { newestFirst, olderThan } from '@/lib/db/paging';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import type { TWebhookRow } from '@/lib/service/webhooks/webhook-json';
import { assembleBuckets, queryAttemptCounts, type TBucketRow } from './query-attempt-buckets';
import { queryDeliveryStates, type TDeliveryState } from './query-delivery-state';
import { queryRecoveries, type TRecovery, type TRecoveryAsk } from './query-recovery';
import { queryRollupCounts, rollupsComplete } from './query-rollup-buckets';
import { STATS_WINDOWS, type TStatsWindow, type TWebhookStatsJson } from './schemas';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * EXT GET /v1/webhooks/{id}/stats: how the account's webhook has been doing over `window`. The
 * window starts at the start of its first epoch-aligned bucket (so it may be up to a bucket longer
 * than its name) and ends now. Counts and percentiles come from the rollups kept as attempts are
 * stored (service.attempt_rollups), at the same cost at any volume; while attempts stored before
 * the rollups existed are still being added, from the attempts themselves (the same figures, with
 * exact percentiles).
 */
export async function getWebhookStats(accountId: string, webhookId: string, window: TStatsWindow, now = new Date()): Promise<TWebhookStatsJson> {
  const db = await getDb();
  const webhook = await getWebhook(accountId, webhookId, { db });
  const [stats] = await statsOfWebhooks(db, [webhook], window, now);
  return stats;
}

/** EXT GET /v1/webhooks/stats: the stats of one page of the account's webhooks (newest first), in one call. */
export async function listWebhookStats(
  accountId: string,
  window: TStatsWindow,
  page: TPageParams,
  now = new Date(),
): Promise<{ results: TWebhookStatsJson[]; nextPageToken?: string }> {
  const db = await getDb();
  const w = schema.webhooks;
  const rows = await db
    .select()
    .from(w)
    .where(and(eq(w.accountId, accountId), isNull(w.deletedAt), olderThan(w.createdAt, w.id, page.cursor)))
    .orderBy(...newestFirst(w.createdAt, w.id))
    .limit(page.limit + 1);
  const listed = await pageOf(
    rows,
    page.limit,
    (r) => ({ createdAt: r.createdAt, id: r.id }),
    (r) => r,
    page.scope,
  );
  return { ...listed, results: await statsOfWebhooks(db, listed.results, window, now) };
}

/** The window's bounds and buckets. */
export function statsWindow(window: TStatsWindow, now: Date): { from: Date; until: Date; firstBucket: Date; bucketSeconds: number } {
  const { seconds, bucketSeconds } = STATS_WINDOWS[window];
  const bucketMs = bucketSeconds * 1000;
  const firstBucket = new Date(Math.floor((now.getTime() - seconds * 1000) / bucketMs) * bucketMs);
  return { from: firstBucket, until: now, firstBucket, bucketSeconds };
}

/** From the rollups once they hold every attempt of these webhooks; until then from the attempts (the same figures). */
export async function bucketsOf(
  db: DbOrTx,
  webhookIds: string[],
  w: ReturnType<typeof statsWindow>,
  source?: 'rollups' | 'attempts',
): Promise<Map<string, TBucketRow[]>> {
  const from = source ?? ((await rollupsComplete(db, webhookIds)) ? 'rollups' : 'attempts');
  const rows =
    from === 'rollups' ? await queryRollupCounts(db, webhookIds, w) : (await Promise.all(webhookIds.map((id) => queryAttemptCounts(db, id, w)))).flat();
  return assembleBuckets(webhookIds, rows, w);
}

/**
 * The newest failure of the window and the attempts since: when the newest attempt failed, it is
 * the newest failure (nothing to read); when it succeeded after one in the window, where to look for
 * that failure (the newest bucket with one), read for every such webhook at once (queryRecoveries).
 */
function recoveryOf(webhookId: string, rows: TBucketRow[], state: TDeliveryState, w: ReturnType<typeof statsWindow>): TRecovery | TRecoveryAsk | null {
  if (state.failureStreak > 0) {
    return state.lastAttemptMs === null || state.lastAttemptMs < w.from.getTime() ? null : { lastFailureMs: state.lastAttemptMs, sinceMs: null, attempts: 0 };
  }
  const failed = rows.filter((r) => r.startMs !== null && r.attempts > r.successes);
  const newest = failed[failed.length - 1];
  if (!newest || newest.startMs === null) return null;
  return { webhookId, start: new Date(newest.startMs), end: new Date(Math.min(newest.startMs + w.bucketSeconds * 1000, w.until.getTime() + 1)) };
}

export async function statsOfWebhooks(db: DbOrTx, webhooks: TWebhookRow[], window: TStatsWindow, now: Date): Promise<TWebhookStatsJson[]> {
  const w = statsWindow(window, now);
  const bucketMs = w.bucketSeconds * 1000;
  const ids = webhooks.map((x) => x.id);
  const complete = await rollupsComplete(db, ids);
  const [buckets, states] = await Promise.all([bucketsOf(db, ids, w, complete ? 'rollups' : 'attempts'), queryDeliveryStates(db, ids, complete)]);
  const known = ids.map((id) => recoveryOf(id, buckets.get(id) ?? [], states.get(id)!, w));
  const asked = await queryRecoveries(
    db,
    known.filter((r): r is TRecoveryAsk => r !== null && 'webhookId' in r),
  );
  return webhooks.map((webhook, i): TWebhookStatsJson => {
    const rows = buckets.get(webhook.id) ?? [];
    const state = states.get(webhook.id)!;
    const k = known[i];
    const r = k === null ? null : 'webhookId' in k ? (asked.get(k.webhookId) ?? null) : k;
    const total = rows.find((r) => r.startMs === null) ?? { attempts: 0, successes: 0, p50: null, p95: null, p99: null };
    return {
      webhookId: webhook.id,
      window,
      from: w.from.toISOString(),
      until: w.until.toISOString(),
      bucketSeconds: w.bucketSeconds,
      attempts: total.attempts,
      successes: total.successes,
      failures: total.attempts - total.successes,
      successRate: total.attempts > 0 ? Math.round((total.successes / total.attempts) * 10_000) / 10_000 : null,
      responseTimeMs: { p50: total.p50, p95: total.p95, p99: total.p99 },
      backlog: {
        pending: state.pending,
        sending: state.sending,
        oldestPendingAt: iso(state.oldestPendingMs),
        oldestPendingAgeSeconds: state.oldestPendingMs === null ? null : Math.max(0, Math.round((w.until.getTime() - state.oldestPendingMs) / 1000)),
        nextAttemptAt: iso(state.nextAttemptMs),
      },
      lastSuccessAt: iso(state.lastSuccessMs),
      lastAttemptAt: iso(state.lastAttemptMs),
      failureStreak: state.failureStreak,
      lastFailureAt: iso(r?.lastFailureMs ?? null),
      recovery: r && r.sinceMs !== null && r.attempts > 0 ? { since: new Date(r.sinceMs).toISOString(), attempts: r.attempts } : null,
      failingSince: webhook.failingSince ? webhook.failingSince.toISOString() : null,
      disabled: webhook.disabled,
      disabledReason: webhook.disabledReason ?? null,
      disabledAt: webhook.disabledAt ? webhook.disabledAt.toISOString() : null,
      buckets: rows
        .filter((r): r is typeof r & { startMs: number } => r.startMs !== null)
        .map((r) => ({
          start: new Date(r.startMs).toISOString(),
          end: new Date(r.startMs + bucketMs).toISOString(),
          attempts: r.attempts,
          successes: r.successes,
          failures: r.attempts - r.successes,
          p50: r.p50,
          p95: r.p95,
          p99: r.p99,
        })),
    };
  });
}
