import { sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { isStoreUnavailable } from '@/lib/db/store-availability';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { emitEvent } from '@/lib/service/events/emit-event';
import { lastErrorOf } from '@/lib/service/events/emit-operational-event';
import type { TWebhookFailingData } from '@/lib/service/events/failing-event';
import { disableSpentStretches } from './disable-spent-stretches';
import { wakingTransaction } from '@/lib/service/delivery/wake-workers';

// EXT `webhook.failing`: the warning before a webhook is disabled. A webhook's failing stretch
// (failing-stretch.ts) disables it after DELIVERY_DISABLE_AFTER_MS; as the stretch passes 50, 75 and
// 90 % of that, the account's other subscribed webhooks are told, once per stretch and share.
//
// Time drives it, not attempts: a stretch passes 75 % whether or not an attempt lands then, so a
// sweep beside the delivery worker reads the failing webhooks (a partial index: only those) every
// few seconds. Once-only across processes: the share announced and the stretch it was for are kept
// on the webhook's row, and each warning is written by a conditional UPDATE of that row, in the
// transaction that queues its event; two sweeps at once both try, one row changes, one event is
// queued. A stretch that ends (a success, a re-enable) starts the count again with the next one.
// The same sweep disables a webhook at its `disablesAt` when no attempt is due to
// (disable-spent-stretches.ts).

/** The shares of the threshold that are announced, highest first. */
export const WARNING_PERCENTS = [90, 75, 50] as const;

/** The highest announced share a stretch of `elapsedMs` has passed, or 0 before the first. */
export function failingLevel(elapsedMs: number, thresholdMs: number): number {
  return WARNING_PERCENTS.find((p) => elapsedMs >= (thresholdMs * p) / 100) ?? 0;
}

/** How often the sweep looks: a 200th of the threshold, between 200 ms and 30 s. */
export function sweepIntervalMs(thresholdMs = env.DELIVERY_DISABLE_AFTER_MS): number {
  return Math.min(30_000, Math.max(200, Math.round(thresholdMs / 200)));
}

type TCandidate = { id: string; failing_since: Date | string; level: number };
type TWarned = { id: string; account_id: string; url: string; failing_since: Date | string; disables_at: Date | string };

const iso = (v: Date | string) => new Date(v).toISOString();
const thresholdMs = () => env.DELIVERY_DISABLE_AFTER_MS;

/** One warning, if it is still due: the row's share moved up (this stretch) and the event queued, in `tx`. */
async function warnOne(tx: Tx, c: TCandidate): Promise<boolean> {
  const [w] = await queryRows<TWarned>(
    tx,
    sql`update service.webhooks set failing_warned_percent = ${c.level}, failing_warned_since = failing_since
        where id = ${c.id} and not disabled and deleted_at is null and paused_at is null and failing_since = ${iso(c.failing_since)}::timestamptz
          and (failing_warned_since is distinct from failing_since or coalesce(failing_warned_percent, 0) < ${c.level})
        returning id, account_id, url, failing_since, failing_since + ${thresholdMs()}::bigint * interval '1 millisecond' as disables_at`,
  );
  if (!w) return false;
  const [facts] = await queryRows<{ waiting: number; status: number | null; response: string | null }>(
    tx,
    sql`select (select count(*)::int from service.deliveries where webhook_id = ${w.id} and status in ('pending', 'sending')) as waiting,
               a.response_status_code as status, a.response
        from (select 1) one
        left join lateral (select response_status_code, response from service.attempts
                           where webhook_id = ${w.id} and status = 'failed' order by created_at desc limit 1) a on true`,
  );
  await emitEvent(tx, {
    accountId: w.account_id,
    eventType: 'webhook.failing',
    payload: {
      webhookId: w.id,
      url: w.url,
      failingSince: iso(w.failing_since),
      disablesAt: iso(w.disables_at),
      thresholdPercent: c.level,
      lastError: facts?.status == null ? null : lastErrorOf({ responseStatusCode: facts.status, response: facts.response ?? '' }),
      waitingMessages: Number(facts?.waiting ?? 0),
    } satisfies TWebhookFailingData,
    tags: [`webhook:${w.id}`],
    excludeWebhookId: w.id,
  });
  return true;
}

/** One sweep: every enabled webhook whose stretch passed a share not yet announced gets its warning. How many were sent. */
export async function warnFailingWebhooks(): Promise<number> {
  const db = await getDb();
  const t = thresholdMs();
  const candidates = await queryRows<TCandidate>(
    db,
    sql`select id, failing_since, level from (
          select id, failing_since, failing_warned_percent, failing_warned_since,
                 case when now() >= failing_since + ${(t * 90) / 100}::float8 * interval '1 millisecond' then 90
                      when now() >= failing_since + ${(t * 75) / 100}::float8 * interval '1 millisecond' then 75
                      else 50 end as level
          from service.webhooks
          where failing_since is not null and not disabled and deleted_at is null and paused_at is null
            and failing_since <= now() - ${t / 2}::float8 * interval '1 millisecond') x
        where failing_warned_since is distinct from failing_since or coalesce(failing_warned_percent, 0) < level
        order by failing_since
        limit 500`,
  );
  let sent = 0;
  // One transaction a webhook: each locks one row, so a sweep never deadlocks with the worker's batches.
  for (const c of candidates) if (await wakingTransaction((tx) => warnOne(tx, { ...c, level: Number(c.level) }))) sent++;
  return sent;
}

type TLoop = { timer: NodeJS.Timeout | null; running: Promise<void> | null; stopped: boolean };
const holder = processSingleton('failing-warnings', (): { loop?: TLoop } => ({}));

function schedule(loop: TLoop, delayMs: number): void {
  if (loop.stopped) return;
  loop.timer = setTimeout(() => {
    loop.timer = null;
    let next = sweepIntervalMs();
    // Disabling first: a stretch already spent is disabled, not warned about at 90 %.
    loop.running = disableSpentStretches()
      .then(() => warnFailingWebhooks())
      .then(() => undefined)
      .catch((err: Error) => {
        if (!isStoreUnavailable(err)) console.warn(`failing-webhook warnings: ${err.message}`);
        next = Math.max(next, 1000);
      })
      .finally(() => {
        loop.running = null;
        schedule(loop, next);
      });
  }, delayMs);
  loop.timer.unref();
}

/** Starts this process's sweep (beside its delivery worker); a second call does nothing. */
export function startFailingWarnings(): void {
  if (holder.loop && !holder.loop.stopped) return;
  const loop: TLoop = { timer: null, running: null, stopped: false };
  holder.loop = loop;
  schedule(loop, sweepIntervalMs());
}

/** Stops the sweep and waits for one under way. */
export async function stopFailingWarnings(): Promise<null | undefined> {
  const loop = holder.loop;
  if (!loop || loop.stopped) return null;
  loop.stopped = true;
  if (loop.timer) clearTimeout(loop.timer);
  await loop.running;
}
