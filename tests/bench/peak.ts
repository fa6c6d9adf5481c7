import os from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { startApp } from '../helpers/app';
import { call, sleep, token } from '../helpers/http';
import { CONFIG } from './config';
import { connectKey, expect201, randomEin } from './delivery';
import { busiestWindow, latencies, pacedGrants, tally, type TPaced } from './peak-load';
import { sampleWaits, traceBusiest, traceOthersByTime, traceQueue } from './peak-trace';
import { percentile as p } from './stats';
import { atMost, fmt, printTable, type TFigure } from './report';
import { startSinkProcess, type TRemoteSink as TSink } from './sink-process';
import { splitApp, startWorker } from './workers';

// Issue 53.6, the peak day on PostgreSQL with two `npm run worker` processes: N webhooks, one of
// them capped at CAP/s; a burst of GRANTS grants in BURST s for the capped webhook's account beside
// a steady load for the others (each steady grant goes to every other webhook). Measured at the
// receivers (tests/bench/sink.ts, in a process of their own: sink-process.ts): the capped receiver's busiest second; the drain against
// GRANTS/CAP s; the other webhooks' delivery p50/p99 during the burst against the same steady load
// alone; nothing lost, nothing twice. Then the same with the capped webhook paused for PAUSE s
// and resumed: nothing arrives while it is paused, and the backlog drains under the cap after.

type TApp = Awaited<ReturnType<typeof startApp>>;
const ACCOUNTS = ['bench-peak-steady', 'bench-peak-capped', 'bench-peak-paused'];
const STEADY = '/sink/timed/steady-';

type TSide = { tok: string; apiKey: string };

async function side(app: TApp, account: string, nonprofitId: string): Promise<TSide> {
  const tok = await token(app, app.clients[account]);
  return { tok, apiKey: await connectKey(app, tok, nonprofitId) };
}

async function webhook(app: TApp, tok: string, url: string, rateLimit: number | null): Promise<string> {
  return (await expect201('creating a webhook', call(app, 'POST', '/v1/webhooks', { token: tok, body: { url, eventTypes: ['grant.succeeded'], rateLimit } })))
    .id;
}

/** Waits until every grant of `sent` reached each of `webhooks` paths under `prefix`, or `seconds` pass. */
async function settled(sink: TSink, prefix: string, sent: TPaced, webhooks: number, seconds: number) {
  const deadline = performance.now() + seconds * 1000;
  while (tally(await sink.timed(prefix), sent.sent, webhooks).arrived < sent.sent.size * webhooks && performance.now() < deadline) await sleep(1000);
  return tally(await sink.timed(prefix), sent.sent, webhooks);
}

/**
 * The capped webhook's attempts by when each send started, as its worker recorded them (just after the cap's limiter
 * admitted it): the sender's side of the busiest second. Beside the receiver's, it tells a send the limiter let through
 * from sends that left in time and reached the receiver together (a starved sender or sink at a load above the cores).
 */
async function sentTimes(app: TApp, webhookId: string): Promise<number[]> {
  const db = new pg.Client({ connectionString: app.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{ ms: string }>(`select extract(epoch from created_at) * 1000 as ms from service.attempts where webhook_id = $1`, [
      webhookId,
    ]);
    return rows.map((r) => Number(r.ms));
  } finally {
    await db.end();
  }
}

async function steadyAlone(app: TApp, sink: TSink, steady: TSide, others: number) {
  const { steadyRate, baselineSeconds } = CONFIG.peak;
  const stopWaits = sampleWaits(app, 'steady alone');
  const run = await pacedGrants(app.baseUrl, { ...steady, count: steadyRate * baselineSeconds, seconds: baselineSeconds });
  await stopWaits();
  const done = await settled(sink, STEADY, run, others, 60);
  if (CONFIG.peak.trace) {
    const answer = [...run.sent].map(([id, at]) => run.answered.get(id)! - at).sort((a, b) => a - b);
    const after = latencies(await sink.timed(STEADY), run.answered).sort((a, b) => a - b);
    console.log(
      `[trace] alone: grants answered p50 ${p(answer, 50)} p99 ${p(answer, 99)} ms; deliveries after the answer p50 ${p(after, 50)} p99 ${p(after, 99)} ms`,
    );
  }
  return { run, done, lat: latencies(await sink.timed(STEADY), run.sent) };
}

async function burst(app: TApp, sink: TSink, steady: TSide, capped: TSide & { id: string; prefix: string }, others: number, pause: number) {
  const { grants, cap, steadyRate, burstSeconds } = CONFIG.peak;
  const stopTrace = traceQueue(app, capped.id);
  const stopWaits = sampleWaits(app, `burst${pause ? ', paused' : ''}`);
  const pausedAround: { pausedAt: number; resumedAt: number } = { pausedAt: NaN, resumedAt: NaN };
  const pauser = (async () => {
    if (!pause) return;
    await sleep(Math.min(10, burstSeconds / 4) * 1000);
    const patch = (paused: boolean) => call(app, 'PATCH', `/v1/webhooks/${capped.id}`, { token: capped.tok, body: { paused } });
    if ((await patch(true)).status !== 200) throw new Error('pausing the capped webhook failed');
    pausedAround.pausedAt = performance.now();
    await sleep(pause * 1000);
    pausedAround.resumedAt = performance.now();
    if ((await patch(false)).status !== 200) throw new Error('resuming the capped webhook failed');
  })();
  const [steadyRun, cappedRun] = await Promise.all([
    pacedGrants(app.baseUrl, { ...steady, count: steadyRate * burstSeconds, seconds: burstSeconds }),
    pacedGrants(app.baseUrl, { ...capped, count: grants, seconds: burstSeconds }),
    pauser,
  ]);
  await stopWaits();
  const ideal = grants / cap + pause;
  const cappedDone = await settled(sink, capped.prefix, cappedRun, 1, ideal * 2 + 60);
  const steadyDone = await settled(sink, STEADY, steadyRun, others, 60);
  await stopTrace();
  if (CONFIG.peak.trace) {
    const answer = [...steadyRun.sent].map(([id, at]) => steadyRun.answered.get(id)! - at).sort((a, b) => a - b);
    const after = latencies(await sink.timed(STEADY), steadyRun.answered).sort((a, b) => a - b);
    console.log(
      `[trace] steady grants answered p50 ${p(answer, 50)} p99 ${p(answer, 99)} ms; their deliveries after the answer p50 ${p(after, 50)} p99 ${p(after, 99)} ms`,
    );
  }
  const steadyArrivals = await sink.timed(STEADY);
  traceOthersByTime(pause ? 'the resume' : 'the burst', steadyArrivals, steadyRun.sent, pause ? pausedAround.resumedAt : cappedRun.firstSentAt);
  if (pause) traceOthersByTime('the pause', steadyArrivals, steadyRun.sent, pausedAround.pausedAt, 4);
  const cappedArrivals = await sink.timed(capped.prefix);
  const cappedTimes = cappedArrivals.map((a) => a.at);
  await traceBusiest(app, capped.id, cappedArrivals, CONFIG.peak.trace ? await sink.stalls() : []);
  const drained = (Math.max(...cappedTimes) - cappedRun.firstSentAt) / 1000;
  if (CONFIG.peak.trace) {
    const per10 = new Array(Math.ceil(drained / 10) + 1).fill(0);
    for (const t of cappedTimes) per10[Math.floor((t - cappedRun.firstSentAt) / 10_000)]++;
    console.log(`[trace] capped arrivals per 10 s: ${per10.join(' ')}`);
    const sorted = [...cappedTimes].sort((a, b) => a - b).map((t) => t - cappedRun.firstSentAt);
    const gaps = sorted
      .slice(1)
      .map((t, i) => [t - sorted[i], sorted[i]])
      .sort((a, b) => b[0] - a[0])
      .slice(0, 6);
    console.log(
      `[trace] largest gaps (ms, after ms): ${JSON.stringify(gaps.map(([g, t]) => [Math.round(g), Math.round(t)]))}; last 5: ${sorted.slice(-5).map(Math.round).join(' ')}`,
    );
  }
  // A delivery already in flight when the pause answered may land just after it: a second's grace.
  const whilePaused = pause ? cappedTimes.filter((t) => t > pausedAround.pausedAt + 1000 && t < pausedAround.resumedAt).length : 0;
  return {
    steadyRun,
    cappedRun,
    cappedDone,
    steadyDone,
    busiest: busiestWindow(cappedTimes),
    busiestSent: busiestWindow(await sentTimes(app, capped.id)),
    drained,
    ideal,
    whilePaused,
    lat: latencies(await sink.timed(STEADY), steadyRun.sent),
  };
}

export async function benchPeak(): Promise<TFigure[]> {
  const { grants, cap, webhooks, steadyRate, burstSeconds, pauseSeconds } = CONFIG.peak;
  const others = webhooks - 1;
  console.log(
    `\n── Peak on postgres, ${CONFIG.peak.workers} workers: ${webhooks} webhooks, one capped at ${cap}/s; ${grants} grants in ${burstSeconds} s for it beside ${steadyRate} grants/s × ${others} webhooks`,
  );
  const { app, dispose } = await splitApp(ACCOUNTS);
  const sink = await startSinkProcess({ watchStalls: CONFIG.peak.trace });
  const stops = await Promise.all(Array.from({ length: CONFIG.peak.workers }, () => startWorker(app)));
  try {
    const first = await token(app, app.clients[ACCOUNTS[0]]);
    const np = await expect201(
      'creating a nonprofit',
      call(app, 'POST', '/v1/nonprofits', { token: first, body: { ein: randomEin(), user: { email: 'peak@example.org' } } }),
    );
    const [steady, cappedSide, pausedSide] = await Promise.all(ACCOUNTS.map((a) => side(app, a, np.id)));
    for (let k = 0; k < others; k++) await webhook(app, steady.tok, `${sink.origin}${STEADY}${k}`, null);
    const capped = { ...cappedSide, prefix: '/sink/timed/capped-run', id: '' };
    capped.id = await webhook(app, capped.tok, `${sink.origin}${capped.prefix}`, cap);
    const paused = { ...pausedSide, prefix: '/sink/timed/capped-paused', id: '' };
    paused.id = await webhook(app, paused.tok, `${sink.origin}${paused.prefix}`, cap);

    await pacedGrants(app.baseUrl, { ...steady, count: 10, seconds: 2 }); // warms both workers and the app's routes
    const alone = await steadyAlone(app, sink, steady, others);
    const runs = [await burst(app, sink, steady, capped, others, 0), await burst(app, sink, steady, paused, others, pauseSeconds)];

    // A sender spaces its sends to the millisecond only while it gets a core when it asks: at a load
    // well above the cores, a worker that is not run for 100 ms sends what came meanwhile together.
    const load = os.loadavg()[0].toFixed(1);
    printTable(
      `Peak on postgres: steady ${steadyRate} grants/s to ${others} webhooks; the capped webhook's burst (${grants} grants in ${burstSeconds} s, cap ${cap}/s); load average ${load} on ${os.cpus().length} cores; receivers at priority ${sink.priority}`,
      ['run', 'capped: busiest 1 s', 'as sent', 'drained in', 'ideal', 'lost · twice', 'others p50', 'others p99', 'others lost · twice', 'sent late'],
      [
        [
          'steady alone',
          '—',
          '—',
          '—',
          '—',
          '—',
          `${fmt(p(alone.lat, 50))} ms`,
          `${fmt(p(alone.lat, 99))} ms`,
          `${alone.done.lost} · ${alone.done.repeated}`,
          '—',
        ],
        ...runs.map((r, i) => [
          i ? `burst, paused ${pauseSeconds} s (${r.whilePaused} arrived while paused)` : 'burst',
          r.busiest,
          r.busiestSent,
          `${fmt(r.drained, 1)} s`,
          `${fmt(r.ideal, 1)} s`,
          `${r.cappedDone.lost} · ${r.cappedDone.repeated}`,
          `${fmt(p(r.lat, 50))} ms`,
          `${fmt(p(r.lat, 99))} ms`,
          `${r.steadyDone.lost} · ${r.steadyDone.repeated}`,
          `${fmt((r.cappedRun.lastSentAt - r.cappedRun.firstSentAt) / 1000 - burstSeconds, 1)} s`,
        ]),
      ],
    );
    const failed = [alone.run, ...runs.flatMap((r) => [r.steadyRun, r.cappedRun])].find((r) => r.failed > 0);
    const note = failed ? { note: `grants refused: ${failed.firstError}` } : {};
    const figures: TFigure[] = [];
    for (const [i, r] of runs.entries()) {
      const label = i ? `, paused ${pauseSeconds} s` : '';
      const fig = (figure: string, unit: string, value: number, baseline: number | null, baselineName: string | null, target: TFigure['target']): TFigure => ({
        store: 'postgres',
        figure: `peak${label}: ${figure}`,
        unit,
        value,
        baseline,
        baselineName,
        target,
        ...note,
      });
      figures.push(
        fig(`capped receiver's busiest second (cap ${cap}/s)`, '/s', r.busiest, null, null, atMost(cap, 'value', `≤ ${cap}`)),
        fig(
          `capped backlog drained (${grants} grants)`,
          's',
          r.drained,
          r.ideal,
          `${grants}/${cap} s${i ? ' + the pause' : ''}`,
          atMost(1.2, 'ratio', '≈ 1× (≤ 1.2×)'),
        ),
        fig('other webhooks: delivery p50 during the burst', 'ms', p(r.lat, 50), p(alone.lat, 50), 'steady load alone', atMost(2)),
        fig('other webhooks: delivery p99 during the burst', 'ms', p(r.lat, 99), p(alone.lat, 99), 'steady load alone', atMost(2)),
        fig(
          'deliveries lost or twice (capped and others)',
          '',
          r.cappedDone.lost + r.cappedDone.repeated + r.steadyDone.lost + r.steadyDone.repeated,
          null,
          null,
          atMost(0, 'value', '0'),
        ),
      );
      if (i) figures.push(fig('capped deliveries that arrived while paused', '', r.whilePaused, null, null, atMost(0, 'value', '0')));
    }
    return figures;
  } finally {
    await Promise.all(stops.map((stop) => stop()));
    await sink.close();
    await dispose();
  }
}
