// Own app: standalone workers, killed, stalled and restarted, with short leases and a short disable threshold.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { queryAppDb, startApp } from '../helpers/app';
import { attemptsOf, freshBesideSlowBacklog, messageWhen, sendTest, subscribe } from '../helpers/delivery';
import { call, eventually, sleep, staffCookie, token, type TResponse } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';

// Delivery with an app of its own per case: the SSRF guard and the disable threshold, a worker
// killed mid-attempt, an attempt held longer than the lease, several web and worker processes on
// PostgreSQL (the rest: delivery.test.ts).

const ROOT = path.resolve(import.meta.dirname, '../..');
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

type TStarted = Awaited<ReturnType<typeof startApp>>;
let receiver: TReceiver;

/**
 * A capped webhook's arrivals at the receiver: `count` of them, at most `cap` in any second less JITTER_MS. The service admits
 * the sends so that no 1.02 s holds more than the cap (lib/service/delivery/admit-send.ts); between an admission and the
 * receiver's clock, a starved worker or test process (CI runs at a load of 30-40) can hold one request back tens of ms longer
 * than the next, which would bring a fifth arrival inside the second of the first four. The bunches these tests catch (the
 * claims before sent 7 or 8 in one second) arrive within a few ms of each other.
 */
const JITTER_MS = 120;
function assertAtMostPerSecond(ep: { requests: () => { at: number }[] }, count: number, cap: number): void {
  const at = ep
    .requests()
    .map((r) => r.at)
    .sort((a, b) => a - b);
  assert.equal(at.length, count, 'each once');
  const busiest = Math.max(...at.map((t0) => at.filter((t) => t >= t0 && t < t0 + 1000 - JITTER_MS).length));
  assert.ok(busiest <= cap, `at most ${cap} in any second at the receiver, got ${busiest}: ${at.map((t) => t - at[0]).join(', ')} ms`);
}

/** A short lease, and a timeout well beyond it: what the stalled attempt below needs. */
const STALL_ENV = { DELIVERY_LEASE_MS: '3000', DELIVERY_TIMEOUT_MS: '15000' };
const STALL_LEASE_MS = Number(STALL_ENV.DELIVERY_LEASE_MS);

/**
 * A receiver that holds its answer for more than twice the lease: the worker that sent it renews its
 * lease while the request is in flight, so no worker claims the delivery again and sends it twice.
 */
async function stalledAttemptGoesOutOnce(app: TStarted, tok: string): Promise<string> {
  const HOLD_MS = 2 * STALL_LEASE_MS + 1000;
  const ep = receiver.endpoint(async () => {
    await sleep(HOLD_MS);
    return { status: 200 };
  });
  const w = await subscribe(app, tok, ep);
  const msgId = await sendTest(app, tok, w.id);
  await eventually(async () => ep.requests().length >= 1, 15000, 'the attempt to arrive');
  // A second POST, from a worker that claimed the delivery when its lease ran out (or a retry after a
  // timeout), would come while the first is held or soon after it.
  await sleep(HOLD_MS + 2 * STALL_LEASE_MS);
  assert.deepEqual(
    ep.requests().map((r) => r.headers['webhook-id']),
    [msgId],
    'the receiver saw the message once',
  );
  await messageWhen(app, tok, w.id, msgId, 'success');
  const attempts = await attemptsOf(app, tok, w.id, msgId);
  assert.deepEqual(
    attempts.map((a) => [a.status, a.responseStatusCode]),
    [['success', 200]],
    'one attempt: the held one, answered',
  );
  return ep.path;
}

before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
});

describe('SSRF guard and disabling after a failing stretch (DELIVERY_ALLOW_PRIVATE=false)', () => {
  let guarded: TStarted;
  let gtok: string;
  before(async () => {
    guarded = await startApp({ env: { DELIVERY_ALLOW_PRIVATE: 'false', DELIVERY_DISABLE_AFTER_MS: '1500' } });
    gtok = await token(guarded);
  });
  after(() => guarded?.stop());

  for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
    test(`a delivery to ${host} is refused: an attempt with status 0 and the reason`, async () => {
      const ep = receiver.endpoint();
      const res = await call(guarded, 'POST', '/v1/webhooks', {
        token: gtok,
        body: { url: ep.url.replace('127.0.0.1', host), eventTypes: ['grant.succeeded'] },
      });
      const msgId = await sendTest(guarded, gtok, res.body.id);
      const [attempt] = await eventually(
        async () => {
          const list = await attemptsOf(guarded, gtok, res.body.id, msgId);
          return list.length > 0 && list;
        },
        15000,
        'the refused attempt',
      );
      assert.equal(attempt.responseStatusCode, 0);
      assert.equal(attempt.status, 'failed');
      const one = await call(guarded, 'GET', `/v1/webhooks/${res.body.id}/attempts/${attempt.id}`, { token: gtok });
      assert.match(one.body.response, /refused .*loopback/);
      assert.equal(ep.requests().length, 0, 'nothing reached the receiver');
    });
  }

  test('a webhook failing with no success for DELIVERY_DISABLE_AFTER_MS is disabled; re-enabling starts afresh', async () => {
    const ep = receiver.endpoint();
    const res = await call(guarded, 'POST', '/v1/webhooks', { token: gtok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
    const w = res.body.id as string;
    const msgId = await sendTest(guarded, gtok, w);
    await eventually(async () => (await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body.disabled, 20000, 'the webhook to be disabled');
    const msg = await messageWhen(guarded, gtok, w, msgId, 'failed');
    assert.ok(msg.attemptCount >= 2 && msg.attemptCount < 8, `disabled after ${msg.attemptCount} attempts, before the schedule ran out`);
    const disabled = (await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body;
    assert.match(disabled.disabledReason, /^failing with no success since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(Date.parse(disabled.disabledAt) > Date.parse(msg.timestamp), `disabled at ${disabled.disabledAt}, after the message of ${msg.timestamp}`);
    // Re-enabled, its failing stretch starts again: one more failure does not disable it at once.
    const enabled = await call(guarded, 'PATCH', `/v1/webhooks/${w}`, { token: gtok, body: { disabled: false } });
    assert.equal(enabled.status, 200);
    assert.equal(enabled.body.disabledReason, null);
    assert.equal(enabled.body.disabledAt, null);
    const enabledAt = Date.now();
    const next = await sendTest(guarded, gtok, w);
    await eventually(async () => (await attemptsOf(guarded, gtok, w, next)).length >= 1, 15000, 'a new attempt');
    // Afresh: not disabled by the old stretch. It may be disabled again by the new one, 1.5 s of
    // failing later, by the time this looks on a loaded machine (CI did): then no sooner than that.
    const again = (await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body;
    if (again.disabled)
      assert.ok(
        Date.parse(again.disabledAt) >= enabledAt + 1500 - 1000,
        `disabled again at ${again.disabledAt}, ${Date.parse(again.disabledAt) - enabledAt} ms after the enable`,
      );
  });

  test("paused, a failing webhook's clock stands still: not disabled however long the pause; resumed, its stretch has moved on", async (t) => {
    // Its first attempt is refused (a loopback address): a failing stretch begins. Then the pause: its retries (1 s apart) are
    // parked once the worker next claims one. (A retry claimed before the pause landed may still go out: CI saw two attempts
    // at a load of ~40, so what counts is that none goes out once the message is parked.) The pause must land within the
    // stretch's 1.5 s, which a loaded machine's polling and PATCH can miss (CI at 42f9ece: the webhook was disabled before
    // the pause, so its message failed and never parked). The PATCH's answer says whether it did: disabled there, the setup
    // missed its window, and it is made again with a fresh webhook; what is asserted below is never loosened.
    let w = '';
    let msgId = '';
    let paused: TResponse | null = null;
    for (let setup = 1; setup <= 4 && !paused; setup++) {
      const ep = receiver.endpoint();
      const res = await call(guarded, 'POST', '/v1/webhooks', { token: gtok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
      w = res.body.id as string;
      msgId = await sendTest(guarded, gtok, w);
      await eventually(async () => (await attemptsOf(guarded, gtok, w, msgId)).length >= 1, 15000, 'the refused attempt');
      const answer = await call(guarded, 'PATCH', `/v1/webhooks/${w}`, { token: gtok, body: { paused: true } });
      assert.equal(answer.status, 200, answer.text);
      if (!answer.body.disabled) paused = answer;
      else t.diagnostic(`setup ${setup}: disabled before the pause landed (${answer.body.disabledAt}, paused ${answer.body.pausedAt}); again`);
    }
    assert.ok(paused, 'a pause landed within the failing stretch in one of 4 setups');
    await eventually(
      async () => {
        const m = (await call(guarded, 'GET', `/v1/webhooks/${w}/messages/${msgId}`, { token: gtok })).body;
        return m.status === 'pending' && m.nextAttempt === null;
      },
      15000,
      'its retry parked',
    );
    const attemptsWhenParked = (await attemptsOf(guarded, gtok, w, msgId)).length;
    const failing = (await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body;
    assert.ok(failing.failingSince, 'a failing stretch');
    assert.equal(failing.disablesAt, null, 'no disable time while paused');
    // Twice the 1.5 s threshold, with its retry due meanwhile: parked, not attempted, and nothing disables it.
    await sleep(3000);
    const during = (await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body;
    assert.deepEqual([during.disabled, during.paused, during.failingSince], [false, true, failing.failingSince], JSON.stringify(during));
    assert.equal((await attemptsOf(guarded, gtok, w, msgId)).length, attemptsWhenParked, 'no attempt while paused');
    const resumed = await call(guarded, 'PATCH', `/v1/webhooks/${w}`, { token: gtok, body: { paused: false } });
    assert.equal(resumed.body.disabled, false, 'resumed, not disabled');
    const moved = Date.parse(resumed.body.failingSince) - Date.parse(failing.failingSince);
    const held = Date.parse(resumed.body.updatedAt) - Date.parse(paused.body.pausedAt);
    assert.equal(moved, held, `the stretch moved on by the ${held} ms it was paused (moved ${moved} ms)`);
    assert.ok(held >= 3000);
    assert.equal(resumed.body.disablesAt, new Date(Date.parse(resumed.body.failingSince) + 1500).toISOString());
  });
});

describe('a worker killed mid-attempt, and one whose attempt stalls', () => {
  let crashy: TStarted;
  before(async () => {
    crashy = await startApp({ env: { DELIVERY_LEASE_MS: '2000' } });
  });
  after(() => crashy?.stop());

  test('the lease expires and the message is delivered again after a restart', async () => {
    const ctok = await token(crashy);
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const ep = receiver.endpoint((_r, n) => (n === 1 ? { hold: held } : { status: 200 }));
    const w = await subscribe(crashy, ctok, ep);
    const msgId = await sendTest(crashy, ctok, w.id);
    await eventually(async () => ep.requests().length === 1, 15000, 'the first attempt to arrive');
    await crashy.kill();
    release();
    // The dead worker's 2 s lease is in its row; the new process claims with the default (60 s), so
    // its own attempt cannot outlive its lease on a loaded machine and be claimed and sent a third time.
    await crashy.restart({ DELIVERY_LEASE_MS: '60000' });
    const ctok2 = await token(crashy);
    const msg = await messageWhen(crashy, ctok2, w.id, msgId, 'success', 20000);
    const ids = ep.requests().map((r) => r.headers['webhook-id']);
    assert.deepEqual(ids, [msgId, msgId], 'the receiver saw the same message twice');
    assert.ok(ep.requests().every((r) => r.verified && r.verifiedSvix));
    const attempts = await attemptsOf(crashy, ctok2, w.id, msgId);
    assert.equal(attempts.at(-1)?.status, 'success');
    assert.equal(msg.attemptCount, attempts.length);
  });

  test(
    'an attempt held longer than the lease goes out once (the embedded store; PostgreSQL: two workers, below)',
    { skip: ON_POSTGRES && 'the two workers on PostgreSQL below' },
    async () => {
      await crashy.restart(STALL_ENV);
      await stalledAttemptGoesOutOnce(crashy, await token(crashy));
    },
  );
});

describe('several processes on PostgreSQL', { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL: the embedded store belongs to one process' }, () => {
  let web1: TStarted;
  let web2: TStarted;
  let tok1: string;
  let tok2: string;
  const workers: { proc: ChildProcess; out: string }[] = [];
  /** The receiver's paths the workers delivered to. */
  const paths: string[] = [];
  before(async () => {
    web1 = await startApp({ env: { WORKER_IN_PROCESS: 'false' } });
    web2 = await startApp({ env: { WORKER_IN_PROCESS: 'false', DATABASE_URL: web1.env.DATABASE_URL } });
    [tok1, tok2] = [await token(web1), await token(web2)];
    for (let i = 0; i < 2; i++) {
      const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
        cwd: ROOT,
        env: { ...process.env, ...web1.env, ...STALL_ENV, DELIVERY_CONCURRENCY: '4' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const entry = { proc, out: '' };
      proc.stdout!.on('data', (d) => (entry.out += d));
      proc.stderr!.on('data', (d) => (entry.out += d));
      workers.push(entry);
    }
    await eventually(async () => workers.every((x) => /worker .* started/.test(x.out)), 30000, 'both workers to start');
  });
  after(async () => {
    for (const x of workers) if (x.proc.exitCode === null) x.proc.kill('SIGKILL');
    await web2?.stop();
    await web1?.stop();
  });

  test('an attempt held longer than the lease goes out once, with two workers claiming', async () => {
    paths.push(await stalledAttemptGoesOutOnce(web1, tok1));
  });

  test('two web processes and two `npm run worker` processes: every message delivered, no attempt run twice at once', async (t) => {
    // A receiver with some latency (so two workers would overlap if both sent one message), failing
    // the first arrival of every third message (so retries, due later, are claimed again).
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const arrivals = new Map<string, number>();
    const ep = receiver.endpoint(async (req) => {
      const id = String(req.headers['webhook-id']);
      if (inFlight.has(id)) overlaps.push(id);
      inFlight.add(id);
      await sleep(20);
      inFlight.delete(id);
      const n = (arrivals.get(id) ?? 0) + 1;
      arrivals.set(id, n);
      return { status: n === 1 && [...arrivals.keys()].indexOf(id) % 3 === 0 ? 500 : 200 };
    });
    const w = await subscribe(web1, tok1, ep);
    paths.push(ep.path);
    const started = Date.now();
    const ids = new Set<string>();
    for (let i = 0; i < 60; i += 10) {
      const [web, tok] = i % 20 === 0 ? [web1, tok1] : [web2, tok2];
      for (const id of await Promise.all(Array.from({ length: 10 }, () => sendTest(web, tok, w.id)))) ids.add(id);
    }
    await eventually(
      async () => [...ids].every((id) => (arrivals.get(id) ?? 0) >= ([...arrivals.keys()].indexOf(id) % 3 === 0 ? 2 : 1)),
      30000,
      'every message acknowledged',
    );
    t.diagnostic(`2 web + 2 workers: 60 messages (20 retried) in ${((Date.now() - started) / 1000).toFixed(2)} s`);
    await sleep(1500);
    assert.equal(ids.size, 60);
    assert.ok(
      [...ids].every((id) => arrivals.has(id)),
      'every message reached the receiver',
    );
    assert.deepEqual(overlaps, [], 'no message was sent by two workers at once');
    for (const id of ids) {
      const attempts = await attemptsOf(web2, tok2, w.id, id);
      const received = ep.requests().filter((r) => String(r.headers['webhook-id']) === id).length;
      assert.equal(attempts.length, received, `${id}: one attempt row per request the receiver got`);
      assert.equal(attempts.at(-1)?.status, 'success', `${id}: delivered`);
    }
  });

  test('a webhook capped at 4/s keeps its cap with two workers claiming: one schedule across both, each message once', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(web1, tok1, ep);
    paths.push(ep.path);
    assert.equal((await call(web1, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok1, body: { rateLimit: 4 } })).body.rateLimit, 4);
    const ids = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? sendTest(web1, tok1, w.id) : sendTest(web2, tok2, w.id))));
    for (const id of ids) await messageWhen(web1, tok1, w.id, id, 'success', 30000);
    await sleep(500);
    const at = ep
      .requests()
      .map((r) => r.at)
      .sort((a, b) => a - b);
    assert.deepEqual(
      ep
        .requests()
        .map((r) => String(r.headers['webhook-id']))
        .sort(),
      [...ids].sort(),
      'each once',
    );
    // 12 at 4/s: slots 250 ms apart, 2.75 s from the first to the last (two workers each keeping a cap of their own would take half that).
    assert.ok(at[11] - at[0] >= 2250, `12 at 4/s took ${at[11] - at[0]} ms`);
  });

  test('a capped webhook whose workers both stall keeps its cap at the receiver when they wake: the slots that came meanwhile do not go out at once', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(web1, tok1, ep);
    paths.push(ep.path);
    assert.equal((await call(web1, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok1, body: { rateLimit: 4 } })).body.rateLimit, 4);
    const ids = await Promise.all(Array.from({ length: 12 }, () => sendTest(web1, tok1, w.id)));
    await eventually(async () => ep.requests().length >= 1, 15000, 'the first arrival');
    // Both workers stop for 2 s, as a process on a starved machine or a long GC pause would: the
    // slots of the next 2 s come due meanwhile (scratch: the claim before sent_at took every one of
    // them at once when the workers woke, 8 in one second at the receiver).
    for (const x of workers) x.proc.kill('SIGSTOP');
    await sleep(2000);
    for (const x of workers) x.proc.kill('SIGCONT');
    for (const id of ids) await messageWhen(web1, tok1, w.id, id, 'success', 30000);
    assertAtMostPerSecond(ep, 12, 4);
  });

  test("a capped webhook's sends claimed while the worker's slots are busy are counted as they go, not when claimed: at most 4 in a second when the slots free", async () => {
    // One worker at work (the other stopped, so the capped webhook's slots cannot go out on time there), its 4 slots taken by two
    // slow webhooks' requests (2 each, their share), held by their receiver until `open`. The capped webhook's come slots are
    // claimed meanwhile and wait in the worker for a slot; when the slots free, they go together. Counted at the claim (the
    // claim's log of sends before admit-send.ts), the claims that followed found room beside them: 8 of a 4/s cap in one second
    // at the receiver (scratch). Counted at the send, the ones after wait until a second after these.
    const stopped = workers[1].proc;
    stopped.kill('SIGSTOP');
    try {
      let open: () => void = () => {};
      const gate = new Promise<void>((r) => (open = r));
      const slow = [receiver.endpoint(() => ({ hold: gate })), receiver.endpoint(() => ({ hold: gate }))];
      for (const ep of slow) {
        const s = await subscribe(web1, tok1, ep);
        paths.push(ep.path);
        await Promise.all([sendTest(web1, tok1, s.id), sendTest(web1, tok1, s.id)]);
      }
      await eventually(async () => slow.every((ep) => ep.requests().length === 2), 15000, "the slow webhooks' 4 requests to take the worker's 4 slots");
      const ep = receiver.endpoint();
      const w = await subscribe(web1, tok1, ep);
      paths.push(ep.path);
      assert.equal((await call(web1, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok1, body: { rateLimit: 4 } })).body.rateLimit, 4);
      const ids = await Promise.all(Array.from({ length: 12 }, () => sendTest(web1, tok1, w.id)));
      // Its first slots come and are claimed (3: the worker claims ahead while its ready batch is low), and wait for a slot.
      await eventually(
        async () => (await call(web1, 'GET', `/v1/webhooks/${w.id}/messages?status=sending`, { token: tok1 })).body.results.length >= 3,
        15000,
        'the capped webhook’s come slots to be claimed',
      );
      assert.equal(ep.requests().length, 0, 'nothing of the capped webhook went out while the slots were busy');
      open();
      for (const id of ids) await messageWhen(web1, tok1, w.id, id, 'success', 30000);
      assertAtMostPerSecond(ep, 12, 4);
    } finally {
      stopped.kill('SIGCONT');
    }
  });

  test("a slow webhook's backlog takes at most half of each worker's slots and none of their claims: another's fresh message goes out beside it", async (t) => {
    // Each worker has 4 slots (DELIVERY_CONCURRENCY) and an endpoint limit of 8: the slow endpoint gets 2 of each worker's, 4 in
    // flight in all. 40 messages answered after 3 s: a 30 s backlog. Held behind it, the fresh message went out once nearly all
    // of it had (every slot and every claim of both workers went to the oldest due deliveries); beside it, while most is unsent.
    const { sentBefore, maxInFlight, paths: theirs } = await freshBesideSlowBacklog(web1, tok1, receiver, 40);
    paths.push(...theirs);
    t.diagnostic(`sent of the slow backlog when the fresh message was: ${sentBefore} of 40; at most ${maxInFlight} in flight`);
    assert.ok(sentBefore <= 20, `${sentBefore} of the slow webhook's 40 had been sent when the fresh message was: it waited behind them`);
    assert.ok(maxInFlight <= 4, `${maxInFlight} of the slow webhook's requests in flight at once across both workers (half of each one's 4 slots)`);
  });

  test("a retention change on a web process starts the pass of the worker that runs it at once, not at the pass's interval (10 minutes here)", async () => {
    const PASSES = `select 'service' as half, pass_started_at as started, pass_ended_at as ended from service.retention_progress where what = 'pass'
      union all select 'console', pass_started_at, pass_ended_at from console.retention_progress where what = 'pass'`;
    type TPass = { half: string; started: Date | null; ended: Date | null };
    // The workers' first passes (2 s after their start) have ended: the next would come at their interval, a fifth of the
    // shortest retention (the defaults': 10 minutes at most).
    await eventually(
      async () => (await queryAppDb<TPass>(web1, PASSES)).filter((p) => p.ended && p.started && p.ended >= p.started).length === 2,
      30_000,
      'the first passes',
    );
    const startedAt = async (half: string) => (await queryAppDb<TPass>(web1, PASSES)).find((p) => p.half === half)!.started!.getTime();
    const changes = [
      { half: 'service', change: (v: string | null) => call(web1, 'PATCH', '/v1/retention', { token: tok1, body: { messageRetention: v } }) },
      {
        half: 'console',
        change: async (v: string | null) =>
          call(web2, 'PATCH', '/api/retention', { headers: { cookie: await staffCookie(web2) }, body: { RECEIPT_RETENTION: v } }),
      },
    ];
    for (const { half, change } of changes) {
      const before = await startedAt(half);
      const res = await change('3650d');
      assert.equal(res.status, 200, res.text);
      await eventually(async () => (await startedAt(half)) > before, 5000, `the ${half} pass after the change`);
      assert.equal((await change(null)).status, 200);
    }
  });

  test("stopped with SIGTERM, the two workers' attempts add up to the requests their receivers got", async (t) => {
    const counts = await Promise.all(
      workers.map(
        (x) =>
          new Promise<number>((resolve) => {
            x.proc.once('exit', () => resolve(Number(/stopped: .*"attempts":(\d+)/.exec(x.out)?.[1] ?? -1)));
            x.proc.kill('SIGTERM');
          }),
      ),
    );
    t.diagnostic(`attempts per worker: ${counts.join(', ')}`);
    const theirs = receiver.received.filter((r) => paths.includes(r.path)).length;
    assert.equal(counts[0] + counts[1], theirs, workers.map((x) => x.out).join('\n'));
    assert.ok(
      counts.every((c) => c > 0),
      `both workers delivered: ${counts.join(', ')}`,
    );
  });
});
