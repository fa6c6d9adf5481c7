import 'server-only';
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { ConnectApiError, isUnsupported, type ConnectApi, type TRecoverRun } from '@/lib/console/connect-api';
import { getDb } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema/console';
import { storySentence, type TOutage, type TStoryDelivery, type TWho } from './story-words';

// The outage's story of one message at one webhook, in one sentence beside its explanation: "made
// while the webhook was disabled (05:10–09:42 UTC); replayed by Recover all (ops@…) at 09:44 UTC".
// Learned over the service's HTTP API only — the webhook's `webhook.disabled` and
// `webhook.recovered` events (EXT, tag `webhook:<id>`), the run that queued the delivery (EXT
// `recoverRunId` → GET …/replay-missing/{id} or …/recover/{id}: its kind, time and API client) —
// and this console's audit log for who pressed Recover all (`webhook.recover-all` names its runs).

export type { TStoryDelivery } from './story-words';

/** What one case build has read already: each webhook's outages by message time, each run. */
export type TStoryCache = Map<string, Promise<unknown>>;

const once = <T>(cache: TStoryCache, key: string, read: () => Promise<T>): Promise<T> => {
  let p = cache.get(key) as Promise<T> | undefined;
  if (!p) cache.set(key, (p = read()));
  return p;
};

/** The webhook's outage the message was made in (disabled at or before it, not yet enabled again), or null. */
async function outageAt(api: ConnectApi, webhookId: string, at: string): Promise<TOutage | null> {
  const tag = `webhook:${webhookId}`;
  const [disabled] = (await api.get('/v1/messages', { params: { query: { tag, eventType: 'webhook.disabled', before: at, pageLimit: 1 } } })).results;
  if (!disabled) return null;
  // Newest first: the last of the page is the first recovery after the disable.
  const recovered = (await api.get('/v1/messages', { params: { query: { tag, eventType: 'webhook.recovered', after: disabled.timestamp, pageLimit: 100 } } }))
    .results;
  const enabledAt = recovered.at(-1)?.timestamp ?? null;
  if (enabledAt && enabledAt <= at) return null;
  return { disabledAt: disabled.timestamp, enabledAt };
}

/** The run by its id, whichever kind it is (the id does not say). */
async function runOf(api: ConnectApi, webhookId: string, runId: string): Promise<TRecoverRun | null> {
  const notFound = (err: unknown) => (err instanceof ConnectApiError && err.status === 404 ? null : Promise.reject(err));
  return (
    (await api.get('/v1/webhooks/{id}/replay-missing/{runId}', { params: { path: { id: webhookId, runId } } }).catch(notFound)) ??
    (await api.get('/v1/webhooks/{id}/recover/{runId}', { params: { path: { id: webhookId, runId } } }).catch(notFound))
  );
}

/** Who pressed Recover all for this run: the audit row naming it among its targets. */
async function pressedBy(run: TRecoverRun): Promise<TWho> {
  const db = await getDb();
  const since = new Date(Date.parse(run.createdAt) - 60_000);
  const [row] = await db
    .select({ actor: auditLog.actor })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'webhook.recover-all'),
        eq(auditLog.result, 'ok'),
        gte(auditLog.at, since),
        lte(auditLog.at, new Date(since.getTime() + 3_600_000)),
        sql`${run.id} = any(string_to_array(${auditLog.target}, ' '))`,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  return row ?? null;
}

/**
 * The story of `message` at `webhookId`, or null when there is none to tell: only a delivery a run
 * queued, or a message the webhook never got, is looked into (a case's other deliveries cost no call).
 * A service without these extensions tells nothing.
 */
export async function deliveryStory(
  api: ConnectApi,
  cache: TStoryCache,
  webhookId: string,
  message: { timestamp: string },
  delivery: TStoryDelivery,
  now: Date,
): Promise<string | null> {
  const runId = delivery?.recoverRunId ?? null;
  if (delivery && !runId) return null;
  try {
    const [outage, run] = await Promise.all([
      once(cache, `outage\n${webhookId}\n${message.timestamp}`, () => outageAt(api, webhookId, message.timestamp)),
      runId ? once(cache, `run\n${runId}`, () => runOf(api, webhookId, runId)) : null,
    ]);
    const who = run ? await once(cache, `who\n${run.id}`, () => pressedBy(run)) : null;
    return storySentence({ outage, run, who, delivery, now });
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}
