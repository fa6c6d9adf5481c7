import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { TApp } from '../helpers/app';
import { sleep } from '../helpers/http';
import { CONFIG } from './config';

// BENCH_YEAR_TRACE=1: what the store's sessions do while the year section reads its views, and through the retention
// pass of its ingest day (a diagnosis aid, not a figure): whether the app's own passes (retention, backfills, upkeep) or
// the worker run beside the reads, or the reads' own statements take the time; during the pass, what ingest waits on. PostgreSQL only (an embedded store's sessions are the app's one thread). Beside it the app
// process's CPU over the reading (its own thread does the JSON and the in-process API calls, which no session shows), and
// what its log said meanwhile of its passes and backfills.

/** The process's CPU seconds so far (utime + stime), or null. */
function cpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Samples every active session of the app's database every 50 ms until stopped; prints the counts by backend · statement · wait. */
export function sampleStore(app: TApp, label: string): () => Promise<void> {
  if (!CONFIG.year.trace || !app.env.DATABASE_URL) return async () => {};
  let on = true;
  const counts = new Map<string, number>();
  let samples = 0;
  const [t0, cpu0, log0] = [performance.now(), cpuSeconds(app.pid()), app.logs().length];
  const db = new pg.Client({ connectionString: app.env.DATABASE_URL });
  const run = (async () => {
    await db.connect();
    while (on) {
      const { rows } = await db.query<{ query: string; wait: string | null; bt: string }>(
        `select query, backend_type as bt, wait_event_type || ':' || wait_event as wait from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()`,
      );
      samples++;
      for (const r of rows) {
        const key = `${r.bt} · ${r.query.replace(/\s+/g, ' ').trim().slice(0, 90)} · ${r.wait ?? 'CPU'}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await sleep(50);
    }
  })();
  return async () => {
    on = false;
    await run.catch((e) => console.log(`[trace] ${e}`));
    await db.end();
    const wall = (performance.now() - t0) / 1000;
    const cpu1 = cpuSeconds(app.pid());
    const cpu = cpu0 !== null && cpu1 !== null ? `${(cpu1 - cpu0).toFixed(1)} s (${(((cpu1 - cpu0) / wall) * 100).toFixed(0)} %)` : '?';
    const passes = app
      .logs()
      .slice(log0)
      .split('\n')
      .filter((l) => /backfill|rollups|retention|purge|partition|recover/i.test(l));
    console.log(`[trace] ${label}: ${wall.toFixed(1)} s, the app's CPU ${cpu}; its log of passes meanwhile: ${passes.join(' | ') || 'none'}`);
    const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 20);
    console.log(`[trace] ${label}: active sessions in ${samples} samples (50 ms apart):\n  ${top.map(([k, n]) => `${n}  ${k}`).join('\n  ')}`);
  };
}

export type TProbe = { at: number; ms: number };

/**
 * BENCH_YEAR_TRACE=1: this process's own stalls (a 5 ms timer fired late by more than 10 ms), until stopped: the load's
 * latencies count from each request's due time, so a stall of the bench's thread reads as the app's.
 */
export function benchStalls(): () => TProbe[] {
  if (!CONFIG.year.trace) return () => [];
  const stalls: TProbe[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - last > 15) stalls.push({ at: performance.timeOrigin + last, ms: now - last - 5 });
    last = now;
  }, 5);
  return () => {
    clearInterval(timer);
    return stalls;
  };
}

/**
 * BENCH_YEAR_TRACE=1: the app's answer to a request that reads no store (a static file), every 20 ms until stopped: a
 * stall there is the app's own thread, not the store.
 */
export function probeApp(app: TApp, asset: string | null): () => Promise<TProbe[]> {
  if (!CONFIG.year.trace || !asset) return async () => [];
  const probes: TProbe[] = [];
  let on = true;
  const run = (async () => {
    while (on) {
      const at = Date.now();
      const t = performance.now();
      await (await fetch(`${app.baseUrl}${asset}`)).arrayBuffer();
      probes.push({ at, ms: performance.now() - t });
      await sleep(20);
    }
  })();
  return async () => {
    on = false;
    await run.catch((e) => console.log(`[trace] probe: ${e}`));
    return probes;
  };
}

/**
 * A static file of the app's, for probeApp: found on the sign-in page, read here, before the round it probes (that page's
 * first render in a process holds the app's thread ~100 ms: in the window, the probe would make the stall it looks for).
 */
export async function staticAsset(app: TApp): Promise<string | null> {
  if (!CONFIG.year.trace) return null;
  const html = await (await fetch(`${app.baseUrl}/login`)).text();
  return /\/_next\/static\/[^"']+\.js/.exec(html)?.[0] ?? null;
}

/** What stalled in a drop's window: the slowest ingests and the app's slow probes, in ms from the window's start. */
export function printStalls(
  day: number,
  window: [number, number],
  slow: { at: number; ms: number }[],
  probes: TProbe[],
  own: TProbe[] = [],
  marks: Record<string, number> = {},
): void {
  if (!CONFIG.year.trace) return;
  const off = (x: { at: number; ms: number }) => `+${x.at - window[0]} ms: ${x.ms.toFixed(0)} ms`;
  const top = [...slow]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 8)
    .sort((a, b) => a.at - b.at);
  const stalls = probes.filter((p) => p.at >= window[0] - 500 && p.at <= window[1] + 500 && p.ms > 30);
  console.log(
    `[trace] day ${day}: drop window from ${new Date(window[0]).toISOString()}, ${window[1] - window[0]} ms; slowest ingests sent at ${top.map(off).join(', ')}; ` +
      `app probes over 30 ms (of ${probes.length}): ${stalls.map(off).join(', ') || 'none'}; ` +
      `the bench's own stalls: ${
        own
          .filter((p) => p.at >= window[0] - 500 && p.at <= window[1] + 500)
          .map(off)
          .join(', ') || 'none'
      }; ` +
      Object.entries(marks)
        .map(([k, t]) => `${k} +${(t - window[0]).toFixed(0)} ms`)
        .join(', '),
  );
}
