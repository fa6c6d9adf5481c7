import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { startApp } from '../helpers/app';
import { sleep } from '../helpers/http';
import { CONFIG } from './config';
import type { TTimedArrival } from './sink';
import { percentile as p } from './stats';

// BENCH_PEAK_TRACE=1: the peak section's diagnosis aids (not figures). The capped webhook's queue
// as the store holds it every 5 s; what the store's sessions wait on during a burst, by statement
// (pg_stat_activity sampled every 50 ms: a lock, the WAL, the client); and the capped receiver's
// busiest second taken apart — when each of its arrivals was sent (its attempt's start, the worker's
// clock on this host), how long each took to arrive, and the receiver's own stalls beside it.

type TApp = Awaited<ReturnType<typeof startApp>>;

async function client(app: TApp): Promise<pg.Client> {
  const db = new pg.Client({ connectionString: app.env.DATABASE_URL });
  await db.connect();
  return db;
}

/** Every 5 s, the capped webhook's queue as the store holds it. */
export function traceQueue(app: TApp, webhookId: string): () => Promise<void> {
  if (!CONFIG.peak.trace) return async () => {};
  let on = true;
  const t0 = performance.now();
  const db = client(app);
  const run = (async () => {
    const c = await db;
    while (on) {
      await sleep(5000);
      const { rows } = await c.query(
        `select
          (select count(*) from service.attempts where webhook_id = $1 and created_at > now() - interval '5 s') as sent5,
          (select count(*) from service.deliveries where webhook_id = $1 and status = 'pending' and slot_at is null and next_attempt_at is not null) as unslotted,
          (select count(*) from service.deliveries where webhook_id = $1 and status = 'pending' and slot_at is not null) as slotted,
          (select count(*) from service.deliveries where webhook_id = $1 and status = 'pending' and next_attempt_at <= now()) as due,
          (select count(*) from service.deliveries where webhook_id = $1 and status = 'sending') as sending,
          (select round(extract(epoch from now() - min(next_attempt_at)) * 1000) from service.deliveries where webhook_id = $1 and status = 'pending') as lag_ms,
          (select round(extract(epoch from now() - min(next_attempt_at)) * 1000) from service.deliveries where webhook_id <> $1 and status = 'pending' and next_attempt_at is not null) as others_lag_ms,
          (select count(*) from service.deliveries where webhook_id <> $1 and status in ('pending', 'sending') and next_attempt_at is not null) as others_queued`,
        [webhookId],
      );
      console.log(`[trace ${((performance.now() - t0) / 1000).toFixed(0)} s load ${os.loadavg()[0].toFixed(1)}] ${JSON.stringify(rows[0])}`);
    }
  })();
  return async () => {
    on = false;
    await run.catch((e) => console.log(`[trace] ${e}`));
    await (await db).end();
  };
}

/** A statement's kind by its text (the hot paths' fixed texts). */
function kindOf(query: string): string {
  const q = query.replace(/\s+/g, ' ').trim().slice(0, 60);
  if (q.startsWith('with guard as')) return 'grant';
  if (q.startsWith('with picked as')) return 'claim';
  if (q.startsWith('with locked as')) return 'admit';
  if (q.startsWith('update service.webhook_rates')) return 'restamp';
  if (q.startsWith('update service.deliveries d set lease_until')) return 'renew';
  if (/attempts|deliveries/.test(q)) return `record/other: ${q.slice(0, 30)}`;
  return q.slice(0, 30);
}

/** Samples what the store's active sessions wait on every 50 ms until stopped; prints the counts, most first. */
export function sampleWaits(app: TApp, label: string): () => Promise<void> {
  if (!CONFIG.peak.trace) return async () => {};
  let on = true;
  const counts = new Map<string, number>();
  let samples = 0;
  const db = client(app);
  const run = (async () => {
    const c = await db;
    while (on) {
      const { rows } = await c.query<{ query: string; wait: string | null }>(
        `select query, wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      samples++;
      for (const r of rows) {
        const key = `${kindOf(r.query)} · ${r.wait ?? 'CPU'}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await sleep(50);
    }
  })();
  return async () => {
    on = false;
    await run.catch((e) => console.log(`[trace] ${e}`));
    await (await db).end();
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log(`[trace] ${label}: active sessions in ${samples} samples (50 ms apart), by statement · wait: ${top.map(([k, n]) => `${k} ${n}`).join('; ')}`);
  };
}

/** The capped receiver's busiest second taken apart: its arrivals' send starts (their attempts) and delays, and the receiver's stalls. */
export async function traceBusiest(app: TApp, webhookId: string, arrivals: TTimedArrival[], stalls: [number, number][]): Promise<void> {
  if (!CONFIG.peak.trace) return;
  const sorted = [...arrivals].sort((a, b) => a.at - b.at);
  let best = { i: 0, n: 0 };
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i].at - sorted[j].at >= 1000) j++;
    if (i - j + 1 > best.n) best = { i: j, n: i - j + 1 };
  }
  const window = sorted.slice(best.i, best.i + best.n);
  if (window.length === 0) return;
  const db = await client(app);
  try {
    const { rows } = await db.query<{ message_id: string; ms: string }>(
      `select message_id, extract(epoch from created_at) * 1000 as ms from service.attempts where webhook_id = $1 and message_id = any($2::text[])`,
      [webhookId, window.map((a) => a.messageId)],
    );
    const sentAt = new Map(rows.map((r) => [r.message_id, Number(r.ms) - performance.timeOrigin]));
    const from = window[0].at;
    const line = window.map((a) => {
      const s = sentAt.get(a.messageId);
      return s === undefined ? `${Math.round(a.at - from)}(?)` : `${Math.round(a.at - from)}←${Math.round(s - from)}`;
    });
    const sends = window.map((a) => sentAt.get(a.messageId)).filter((s): s is number => s !== undefined);
    const delays = window.flatMap((a) => (sentAt.has(a.messageId) ? [a.at - sentAt.get(a.messageId)!] : [])).sort((x, y) => x - y);
    const near = stalls.filter(([s, e]) => e > from - 500 && s < from + 1000).map(([s, e]) => `${Math.round(s - from)}..${Math.round(e - from)}`);
    console.log(
      `[trace] capped receiver's busiest second: ${best.n} arrivals; arrived←sent (ms from its first arrival): ${line.join(' ')}; ` +
        `their sends span ${Math.round(Math.max(...sends) - Math.min(...sends))} ms; send→arrival min ${Math.round(delays[0])} p50 ${Math.round(p(delays, 50))} max ${Math.round(delays.at(-1)!)} ms; ` +
        `receiver stalls > 25 ms near it: ${near.join(' ') || 'none'} (${stalls.length} in the run, longest ${Math.round(Math.max(0, ...stalls.map(([s, e]) => e - s)))} ms)`,
    );
  } finally {
    await db.end();
  }
}

/**
 * The other webhooks' delivery latency by when their grant was sent, in 2 s steps from `from` (a burst's resume, or its
 * start): each step's count, p50 and max — when in the run the others' slow deliveries fall.
 */
export function traceOthersByTime(label: string, arrivals: TTimedArrival[], sent: Map<string, number>, from: number, steps = 15): void {
  if (!CONFIG.peak.trace || !Number.isFinite(from)) return;
  const buckets: number[][] = Array.from({ length: steps + 2 }, () => []);
  for (const a of arrivals) {
    const at = sent.get(a.grantId);
    if (at === undefined) continue;
    const k = Math.floor((at - from) / 2000) + 2;
    if (k >= 0 && k < buckets.length) buckets[k].push(a.at - at);
  }
  const parts = buckets.map((b, k) => {
    const s = [...b].sort((x, y) => x - y);
    return `${(k - 2) * 2}s: ${s.length ? `${Math.round(p(s, 50))}/${Math.round(s.at(-1)!)}` : '—'}`;
  });
  console.log(`[trace] ${label}: others' delivery latency p50/max ms by grant sent, 2 s steps from it: ${parts.join(' ')}`);
}
