import { and, eq, isNull, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/lib/db/client';
import { listenDb } from '@/lib/db/listen';
import { webhooks } from '@/lib/db/schema/service';
import { describeForLog } from '@/lib/http/log-error';
import { processSingleton } from '@/lib/process-singleton';
import { ttlCache } from '@/lib/ttl-cache';

// An account's enabled webhooks with their event types, as fan-out reads them on every event,
// cached per process. A commit that creates, changes, disables or deletes a webhook through the API
// announces its account on WEBHOOKS_CHANNEL (NOTIFY, sent at commit to every process; the embedded store's own
// notifications in one process), which drops that account's entry here; the process that made the
// change drops it at once. The TTL bounds what a missed notification (the LISTEN connection lost,
// or not yet made) can leave: docs/API.md. Fan-out still checks each target's row as it queues
// (emit-event.ts), so a disabled or deleted webhook is never queued, even from a stale entry: the
// worker's own disabling (a failing stretch, a 410) needs no announcement.

export const WEBHOOKS_CHANNEL = 'gc_webhooks';
export const FANOUT_CACHE_TTL_MS = 1000;

export type TFanoutWebhook = { id: string; eventTypes: string[] };

const cache = ttlCache<string, TFanoutWebhook[]>('fanout-webhooks', { ttlMs: FANOUT_CACHE_TTL_MS });
const feed = processSingleton('fanout-webhooks-listen', (): { listening?: Promise<unknown> } => ({}));

function ensureListening(): void {
  feed.listening ??= listenDb(WEBHOOKS_CHANNEL, (accountId) => (accountId ? cache.delete(accountId) : cache.clear())).then(
    // Entries read before the LISTEN was in place may have missed a change in between.
    () => cache.clear(),
    (err) => {
      // Until it is, entries last their TTL; the next fan-out tries to listen again.
      console.error(`[fan-out] could not LISTEN on ${WEBHOOKS_CHANNEL}: ${describeForLog(err)}`);
      feed.listening = undefined;
    },
  );
}

/**
 * The account's enabled webhooks, from this process's cache (read again when changed, or after
 * FANOUT_CACHE_TTL_MS). `db`: the caller's transaction, if any (the embedded store is one
 * connection: a read beside an open transaction would wait for it).
 */
export function fanoutWebhooks(accountId: string, db?: DbOrTx): Promise<TFanoutWebhook[]> {
  ensureListening();
  return cache.get(accountId, async () => {
    return (db ?? (await getDb()))
      .select({ id: webhooks.id, eventTypes: webhooks.eventTypes })
      .from(webhooks)
      .where(and(eq(webhooks.accountId, accountId), eq(webhooks.disabled, false), isNull(webhooks.deletedAt)));
  });
}

/** Announces, at the commit of the caller's transaction, that the account's webhooks changed; call `forgetFanoutWebhooks` once it has ended. */
export async function notifyWebhooksChanged(tx: DbOrTx, accountId: string): Promise<void> {
  await tx.execute(sql`select pg_notify(${WEBHOOKS_CHANNEL}, ${accountId})`);
}

/** Drops this process's entry for the account at once (the change's own process, committed or rolled back; the others hear the NOTIFY). */
export function forgetFanoutWebhooks(accountId: string): void {
  cache.delete(accountId);
}
