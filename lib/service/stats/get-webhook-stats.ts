import { getDb } from '@/lib/db/client';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { queryAttemptBuckets } from './query-attempt-buckets';
import { queryDeliveryState } from './query-delivery-state';
import { STATS_WINDOWS, type TStatsWindow, type TWebhookStatsJson } from './schemas';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * EXT GET /v1/webhooks/{id}/stats: how the account's webhook has been doing over `window`, computed
 * by two SQL statements over indexed rows. The window ends now; its buckets are epoch-aligned, so
 * the first and the last are partial (attempts before `from` are not counted in the first).
 */
export async function getWebhookStats(accountId: string, webhookId: string, window: TStatsWindow, now = new Date()): Promise<TWebhookStatsJson> {
  const db = await getDb();
  const webhook = await getWebhook(accountId, webhookId, { db });
  const { seconds, bucketSeconds } = STATS_WINDOWS[window];
  const until = now;
  const from = new Date(until.getTime() - seconds * 1000);
  const bucketMs = bucketSeconds * 1000;
  const firstBucket = new Date(Math.floor(from.getTime() / bucketMs) * bucketMs);

  const [rows, state] = await Promise.all([
    queryAttemptBuckets(db, webhookId, { from, until, firstBucket, bucketSeconds }),
    queryDeliveryState(db, webhookId),
  ]);
  const total = rows.find((r) => r.startMs === null) ?? { attempts: 0, successes: 0, p50: null, p95: null, p99: null };
  const buckets = rows
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
    }));

  return {
    webhookId,
    window,
    from: from.toISOString(),
    until: until.toISOString(),
    bucketSeconds,
    attempts: total.attempts,
    successes: total.successes,
    failures: total.attempts - total.successes,
    successRate: total.attempts > 0 ? Math.round((total.successes / total.attempts) * 10_000) / 10_000 : null,
    responseTimeMs: { p50: total.p50, p95: total.p95, p99: total.p99 },
    backlog: {
      pending: state.pending,
      sending: state.sending,
      oldestPendingAt: iso(state.oldestPendingMs),
      oldestPendingAgeSeconds: state.oldestPendingMs === null ? null : Math.max(0, Math.round((until.getTime() - state.oldestPendingMs) / 1000)),
      nextAttemptAt: iso(state.nextAttemptMs),
    },
    lastSuccessAt: iso(state.lastSuccessMs),
    lastAttemptAt: iso(state.lastAttemptMs),
    failureStreak: state.failureStreak,
    failingSince: webhook.failingSince ? webhook.failingSince.toISOString() : null,
    disabled: webhook.disabled,
    disabledReason: webhook.disabledReason ?? null,
    disabledAt: webhook.disabledAt ? webhook.disabledAt.toISOString() : null,
    buckets,
  };
}
