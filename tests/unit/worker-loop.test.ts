import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TAdmission } from '@/lib/service/delivery/admit-send';
import type { TClaim, TDeliveryJob } from '@/lib/service/delivery/claim';
import type { TSendResult } from '@/lib/service/delivery/send-webhook';
import { runWorker, type TWorkerConfig, type TWorkerDeps } from '@/lib/service/delivery/worker';
import { IDLE_POLL_MAX_MS, idlePollMs } from '@/lib/service/delivery/worker-state';

// The worker's loop on dependencies of the test's own (worker.ts takes them as TWorkerDeps): a
// queue in memory, sends that take a few milliseconds, no database. What it checks is the schedule.

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function job(i: number, url = `http://127.0.0.1:9/e${i % 4}`): TDeliveryJob {
  const claim: TClaim = {
    id: `d${i}`,
    messageId: `msg_${i}`,
    webhookId: `wh_${i % 4}`,
    accountId: 'a',
    scheduledAttemptCount: 0,
    recoverRunId: null,
    leaseOwner: '',
    createdAt: '2026-01-01T00:00:00.000Z',
  };
  return { claim, target: { url, payload: '{}', secrets: [] } };
}

type TFake = {
  deps: TWorkerDeps;
  limits: number[];
  sent: string[];
  recorded: string[];
  inFlight: () => number;
  maxInFlight: () => number;
  due: (jobs: TDeliveryJob[], inMs?: number) => void;
};

function fakeDeps(sendMs: () => number): TFake {
  let queue: TDeliveryJob[] = [];
  let later: { jobs: TDeliveryJob[]; at: number } | null = null;
  const limits: number[] = [];
  const sent: string[] = [];
  const recorded: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const deps: TWorkerDeps = {
    // As the store's claim: oldest first, none of the webhooks in `skip`, whose jobs do not count as due either.
    claim: async (limit, _owner, skip) => {
      limits.push(limit);
      if (later && Date.now() >= later.at) {
        queue.push(...later.jobs);
        later = null;
      }
      const left = new Set(skip);
      const jobs = queue.filter((j) => !left.has(j.claim.webhookId)).slice(0, limit);
      const taken = new Set(jobs);
      queue = queue.filter((j) => !taken.has(j));
      const due = queue.some((j) => !left.has(j.claim.webhookId));
      return { jobs, nextDueInMs: due ? 0 : later ? later.at - Date.now() : null };
    },
    admit: async () => ({ admitted: true, at: Date.now() }),
    restamp: async () => {},
    send: async ({ claim }): Promise<TSendResult> => {
      sent.push(claim.id);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await sleep(sendMs());
      inFlight--;
      return { startedAt: new Date(), statusCode: 200, ok: true, durationMs: 1, response: '', retryAfter: null };
    },
    record: async (claim) => void recorded.push(claim.id),
    abandon: async () => {},
    release: async () => {},
    renew: async (claims) => claims.map((c) => c.id),
    listen: async () => async () => {},
    log: () => {},
  };
  return {
    deps,
    limits,
    sent,
    recorded,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    due: (jobs, inMs) => {
      if (inMs === undefined) queue.push(...jobs);
      else later = { jobs, at: Date.now() + inMs };
    },
  };
}

const CONFIG: TWorkerConfig = { concurrency: 32, perEndpoint: 8, fallbackPollMs: 5_000, leaseMs: 60_000 };

async function until(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await sleep(5);
}

test('a saturated worker drains a queue, each delivery once, claiming in batches within its limits', async () => {
  const fake = fakeDeps(() => 1 + Math.random() * 4);
  fake.due(Array.from({ length: 400 }, (_, i) => job(i)));
  const worker = await runWorker(fake.deps, CONFIG);
  try {
    await until(() => fake.recorded.length === 400, 10_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.equal(fake.recorded.length, 400);
  assert.equal(new Set(fake.sent).size, 400, 'no delivery sent twice');
  assert.ok(fake.maxInFlight() <= CONFIG.concurrency, `at most ${CONFIG.concurrency} in flight (saw ${fake.maxInFlight()})`);
  assert.ok(fake.maxInFlight() <= 4 * CONFIG.perEndpoint, 'four endpoints, each within its limit');
  const refills = fake.limits.slice(1).filter((n) => n > 0);
  assert.ok(refills.length > 0);
  assert.ok(
    refills.every((n) => n >= CONFIG.concurrency / 8),
    `a saturated worker claims once an eighth of its slots are free (asked for ${refills.join(', ')})`,
  );
  assert.ok(fake.limits.length < 400 / 4, `${fake.limits.length} claims for 400 deliveries`);
});

test('an idle worker sleeps until the next due time its last claim reported, not until the fallback poll', async () => {
  const fake = fakeDeps(() => 1);
  fake.due([job(1)]);
  fake.due([job(2), job(3)], 150);
  // A fallback poll far beyond the wait below: only the reported due time can wake the worker in
  // time, however slow this machine is (no measuring of the wall clock).
  const worker = await runWorker(fake.deps, { ...CONFIG, fallbackPollMs: 600_000 });
  try {
    await until(() => fake.recorded.length === 3, 60_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.deepEqual(fake.recorded.sort(), ['d1', 'd2', 'd3'], 'the retries due in 150 ms went out long before the 10-minute fallback poll');
});

test('an idle worker that LISTENs polls less and less often, up to every 30 s; one that cannot, every DELIVERY_POLL_MS', () => {
  const config = { fallbackPollMs: 2000 };
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 40].map((n) => idlePollMs(config, n, false)),
    [2000, 2000, 4000, 8000, 16000, IDLE_POLL_MAX_MS, IDLE_POLL_MAX_MS, IDLE_POLL_MAX_MS],
  );
  assert.equal(IDLE_POLL_MAX_MS, 30_000);
  assert.equal(idlePollMs(config, 40, true), 2000, 'a steady poll (no LISTEN, or NOTIFYs that do not come) does not back off');
  assert.equal(idlePollMs({ fallbackPollMs: 60_000 }, 40, false), 60_000, 'a poll set beyond the ceiling is kept');
});

/** Claims made, with when, and the wake-up the worker listens with. */
function listening(fake: TFake): { at: number[]; wake: () => void; logged: string[] } {
  const seen = { at: [] as number[], wake: () => {}, logged: [] as string[] };
  const claim = fake.deps.claim;
  fake.deps.claim = async (...args) => {
    seen.at.push(performance.now());
    return claim(...args);
  };
  fake.deps.listen = async (onWake) => {
    seen.wake = onWake;
    return async () => {};
  };
  fake.deps.log = (line) => seen.logged.push(line);
  return seen;
}

test('an idle worker backs its poll off while claims find nothing, and a NOTIFY still wakes it', async () => {
  const fake = fakeDeps(() => 1);
  const seen = listening(fake);
  const worker = await runWorker(fake.deps, { ...CONFIG, fallbackPollMs: 5 });
  try {
    await until(() => seen.at.length >= 8, 60_000);
    // The 7th empty claim waited 5 × 2⁶ = 320 ms at least (a timer never fires early; a slow machine only lengthens it).
    const gap = seen.at[7] - seen.at[6];
    assert.ok(gap >= 300, `the 8th claim came ${gap.toFixed(0)} ms after the 7th, not after a 5 ms poll`);
    fake.due([job(1)]);
    seen.wake(); // the commit's NOTIFY
    await until(() => fake.recorded.length === 1, 60_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.deepEqual(fake.recorded, ['d1']);
  assert.deepEqual(seen.logged, [], 'an announced delivery keeps the backoff');
});

test('a backed-off poll that finds deliveries no NOTIFY announced makes the worker poll every DELIVERY_POLL_MS again, and says so', async () => {
  const fake = fakeDeps(() => 1);
  const seen = listening(fake);
  const worker = await runWorker(fake.deps, { ...CONFIG, fallbackPollMs: 5 });
  try {
    await until(() => seen.at.length >= 6, 60_000);
    fake.due([job(1)]); // queued without a NOTIFY (a pooler in transaction mode drops them)
    await until(() => fake.recorded.length === 1, 60_000);
    const after = seen.at.length;
    // Backing off, 20 more claims would take minutes; at a steady 5 ms they take a fraction of a second.
    await until(() => seen.at.length >= after + 20, 10_000);
    assert.ok(seen.at.length >= after + 20, `${seen.at.length - after} claims since, in 10 s`);
  } finally {
    await worker.stop(1_000);
  }
  assert.deepEqual(fake.recorded, ['d1']);
  assert.equal(seen.logged.length, 1, seen.logged.join('\n'));
  assert.match(seen.logged[0], /a poll found deliveries that no NOTIFY announced .*polling every 5 ms from now on/);
});

test('one endpoint gets at most its limit in flight, however many of its deliveries are claimed', async () => {
  const fake = fakeDeps(() => 3);
  fake.due(Array.from({ length: 60 }, (_, i) => job(i, 'http://127.0.0.1:9/one')));
  const worker = await runWorker(fake.deps, CONFIG);
  try {
    await until(() => fake.recorded.length === 60, 10_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.equal(fake.recorded.length, 60);
  assert.equal(fake.maxInFlight(), CONFIG.perEndpoint);
});

test("a slow endpoint's backlog takes at most half the slots and is left out of the claims: another webhook's fresh delivery goes out at once", async () => {
  const fake = fakeDeps(() => 1);
  let hold: () => void = () => {};
  const held = new Promise<void>((r) => (hold = r));
  const slowInFlight = new Set<string>();
  let maxSlow = 0;
  const { send } = fake.deps;
  fake.deps.send = async (j) => {
    if (j.claim.webhookId !== 'slow') return send(j);
    slowInFlight.add(j.claim.id);
    maxSlow = Math.max(maxSlow, slowInFlight.size);
    await held; // a receiver that does not answer until the test lets it
    slowInFlight.delete(j.claim.id);
    return send(j);
  };
  let wake: () => void = () => {};
  fake.deps.listen = async (onWake) => {
    wake = onWake;
    return async () => {};
  };
  const slow = (i: number): TDeliveryJob => {
    const j = job(i, 'http://127.0.0.1:9/slow');
    return { ...j, claim: { ...j.claim, webhookId: 'slow' } };
  };
  fake.due(Array.from({ length: 50 }, (_, i) => slow(i)));
  // Four slots and an endpoint limit above them: the slow endpoint may still take only two.
  const worker = await runWorker(fake.deps, { ...CONFIG, concurrency: 4, perEndpoint: 8 });
  try {
    await until(() => slowInFlight.size === 2, 10_000);
    const fresh = job(1000, 'http://127.0.0.1:9/fresh');
    fake.due([fresh]);
    wake(); // as the commit's NOTIFY would
    await until(() => fake.recorded.includes(fresh.claim.id), 10_000);
    assert.ok(fake.recorded.includes(fresh.claim.id), "the fresh delivery went out while the slow endpoint's first two still hung");
    assert.equal(maxSlow, 2, 'the slow endpoint held two of the four slots, not all');
    assert.ok(fake.sent.filter((id) => id !== fresh.claim.id).length <= 2, 'no more of the backlog was sent before it');
  } finally {
    hold();
    await worker.stop(1_000);
  }
});

test('while the database is unavailable the loop backs off quietly, keeps its outcomes, and resumes when it answers', async () => {
  const fake = fakeDeps(() => 1);
  const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  const logged: string[] = [];
  let down = true;
  let claims = 0;
  let ticks = 0;
  const claim = fake.deps.claim;
  const record = fake.deps.record;
  const deps: TWorkerDeps = {
    ...fake.deps,
    claim: async (limit, owner, skip) => {
      claims++;
      if (down && claims > 1) throw refused();
      return claim(limit, owner, skip);
    },
    // The store goes away between the send and the write of its outcome.
    record: async (c, url, result) => {
      if (down) throw refused();
      return record(c, url, result);
    },
    log: (line) => logged.push(line),
    tick: () => void ticks++,
  };
  fake.due([job(1), job(2)]);
  fake.due([job(3)], 50);
  // A 10-minute poll: only the backoff can bring the claims back within the waits below.
  const worker = await runWorker(deps, { ...CONFIG, fallbackPollMs: 600_000 });
  try {
    await until(() => claims >= 6, 60_000);
    assert.ok(claims >= 6, `claims tried again before the poll, backing off (${claims})`);
    down = false;
    await until(() => fake.recorded.length === 3, 60_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.deepEqual(fake.recorded.sort(), ['d1', 'd2', 'd3'], 'the outcomes waited out the outage; the queue resumed after it');
  assert.deepEqual(fake.sent.sort(), ['d1', 'd2', 'd3'], 'nothing sent twice');
  assert.deepEqual(logged, [], 'no line per failed try (the database client logs the outage once)');
  assert.ok(ticks >= claims, 'the loop ticks on every turn');
  assert.ok(worker.stats().errors >= 5);
});

test('a slot is free once its request is over: slow outcome commits do not hold back the sending, within 4 × concurrency waiting', async () => {
  const fake = fakeDeps(() => 2);
  let commits = Promise.resolve();
  let waiting = 0;
  let maxWaiting = 0;
  // Outcomes commit one at a time, and none before the test opens the gate: a store that has
  // stalled (a race between 2 ms sends and 10 ms commits on the real clock would be a flaky test).
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  fake.deps.record = (claim) => {
    maxWaiting = Math.max(maxWaiting, ++waiting);
    commits = commits.then(async () => {
      await gate;
      waiting--;
      fake.recorded.push(claim.id);
    });
    return commits;
  };
  const config = { ...CONFIG, concurrency: 4 };
  fake.due(Array.from({ length: 60 }, (_, i) => job(i)));
  const worker = await runWorker(fake.deps, config);
  try {
    // Had each slot waited for its commit, nothing more than the first 4 would be sent before the
    // gate opens: the sends run ahead until 16 outcomes wait, and no further.
    await until(() => fake.sent.length >= 16, 30_000);
    assert.equal(fake.recorded.length, 0);
    assert.equal(fake.sent.length, 16, 'sending stops once 4 × concurrency outcomes wait');
    open();
    await until(() => fake.recorded.length === 60, 30_000);
    assert.equal(fake.recorded.length, 60);
    assert.equal(new Set(fake.sent).size, 60, 'each sent once');
    assert.ok(maxWaiting <= 4 * config.concurrency, `${maxWaiting} outcomes waited at once (at most ${4 * config.concurrency})`);
    assert.ok(maxWaiting > config.concurrency, `${maxWaiting} outcomes waited at once: more than the slots`);
    assert.ok(fake.maxInFlight() <= config.concurrency);
  } finally {
    await worker.stop(1_000);
  }
});

test('it claims ahead: sends start while a claim is out, claims take half a batch or more, and stopping gives back what is ready', async () => {
  const fake = fakeDeps(() => 2);
  let claimsOut = 0;
  let startedDuringClaim = 0;
  const claimed: string[] = [];
  const released: string[] = [];
  const { claim, send } = fake.deps;
  // A slow store: each claim takes 15 ms, several sends' worth.
  fake.deps.claim = async (limit, owner, skip) => {
    claimsOut++;
    await sleep(15);
    const batch = await claim(limit, owner, skip);
    claimsOut--;
    claimed.push(...batch.jobs.map((j) => j.claim.id));
    return batch;
  };
  fake.deps.send = async (j) => {
    if (claimsOut > 0) startedDuringClaim++;
    return send(j);
  };
  fake.deps.release = async (c) => void released.push(c.id);
  const config = { ...CONFIG, concurrency: 8, perEndpoint: 8 };
  // Every delivery to an endpoint of its own: no send waits on an endpoint's limit.
  fake.due(Array.from({ length: 2_000 }, (_, i) => job(i, `http://127.0.0.1:9/own-${i}`)));
  const worker = await runWorker(fake.deps, config);
  let stats;
  try {
    // Stopped while a claim is out (as it is most of the time here): what that claim brings back is
    // given back, whatever this machine's timing — a stop between two claims might find the ready
    // batch already taken by the slots.
    await until(() => fake.sent.length >= 200 && claimsOut > 0, 30_000);
  } finally {
    stats = await worker.stop(5_000);
  }
  assert.ok(startedDuringClaim > 0, 'a free slot took a ready job while the next claim was out');
  const refills = fake.limits.slice(1);
  assert.ok(
    refills.every((n) => n >= config.concurrency / 2),
    `each claim after the first asked for half a batch or more (${refills.join(', ')})`,
  );
  assert.equal(claimed.length, fake.sent.length + released.length, 'every claimed job was either sent or given back');
  assert.equal(new Set([...fake.sent, ...released]).size, claimed.length, 'none both');
  assert.ok(released.length > 0, 'the batch ready when it stopped was given back');
  assert.equal(stats.released, released.length);
  assert.equal(fake.recorded.length, fake.sent.length, 'every sent one recorded before stop returned');
});

test("a started job's lease is renewed while its request is in flight; one that waited for its endpoint's slot past half its lease is given back, not sent", async () => {
  const fake = fakeDeps(() => 0);
  const renewed: string[][] = [];
  const released: string[] = [];
  let hold!: () => void;
  const held = new Promise<void>((r) => (hold = r));
  const { send } = fake.deps;
  // d1's request is held (a receiver answering late); d2 waits behind it for the endpoint's one slot, ready, not started.
  fake.deps.send = async (j) => {
    if (j.claim.id === 'd1') await held;
    return send(j);
  };
  fake.deps.release = async (c) => void released.push(c.id);
  fake.deps.renew = async (claims) => {
    renewed.push(claims.map((c) => c.id).sort());
    return claims.map((c) => c.id);
  };
  fake.due([job(1, 'http://127.0.0.1:9/one'), job(2, 'http://127.0.0.1:9/one')]);
  // A lease of 1 s, renewed every 100 ms: d1 is held for six renewals or more, so d2's claim is more than half a lease old.
  const worker = await runWorker(fake.deps, { ...CONFIG, perEndpoint: 1, leaseMs: 1_000 });
  try {
    await until(() => renewed.length >= 6, 30_000);
    hold();
    await until(() => fake.recorded.length === 1 && worker.stats().released === 1, 30_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.ok(renewed.length >= 6, `renewed ${renewed.length} times while d1 was in flight`);
  assert.ok(
    renewed.every((ids) => ids.join() === 'd1'),
    `d1 alone, the one started: ${JSON.stringify(renewed)}`,
  );
  assert.deepEqual(fake.sent, ['d1'], 'd2, whose claim was more than half a lease old when its slot came, was not sent');
  assert.deepEqual(released, ['d2'], 'but given back, for any worker to take at once');
  assert.deepEqual(fake.recorded, ['d1']);
});

/**
 * Capped jobs d1–d6 whose admissions the fake store stamps with its own clock, `skewMs` off the worker's (another host's),
 * answering d1 `stallMs` after it stamped it (the worker did not take the answer in between) and the others at once.
 */
async function restampsWith(skewMs: number, stallMs: number, dispatchStallMs = 0) {
  const fake = fakeDeps(() => 0);
  const restamped: { id: string; at: number }[] = [];
  const stamps = new Map<string, number>();
  fake.deps.admit = async (claim) => {
    const at = Date.now() + skewMs;
    stamps.set(claim.id, at);
    if (claim.id === 'd1') await sleep(stallMs);
    return { admitted: true, at };
  };
  fake.deps.restamp = async (claim, at) => void restamped.push({ id: claim.id, at });
  const send = fake.deps.send;
  let heldUntil = -Infinity;
  // d1's send held `dispatchStallMs` in its synchronous part (signing it, handing it to the socket), as a preempted process is.
  fake.deps.send = (job) => {
    if (job.claim.id === 'd1' && dispatchStallMs > 0) {
      heldUntil = Date.now() + dispatchStallMs;
      while (Date.now() < heldUntil);
    }
    return send(job);
  };
  const capped = (i: number): TDeliveryJob => ({ ...job(i), target: { ...job(i).target!, rateLimit: 20 } });
  fake.due([1, 2, 3, 4, 5, 6].map(capped));
  const worker = await runWorker(fake.deps, CONFIG);
  try {
    await until(() => fake.recorded.length === 6, 30_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.deepEqual(fake.sent.sort(), ['d1', 'd2', 'd3', 'd4', 'd5', 'd6'], 'each sent once, the late one without waiting');
  return { restamped, stamps, heldUntil };
}

test('a capped send that starts more than LATE_SEND_MS after its admission has its log entry moved; those on time are left as admitted', async () => {
  const { restamped, stamps } = await restampsWith(0, 40);
  assert.deepEqual(restamped, [{ id: 'd1', at: stamps.get('d1') }], 'd1’s entry moved (from its admission), the others’ left');
});

test('a capped send held while it is handed to its socket (its process preempted there) has its log entry moved too', async () => {
  // Judged before the send's synchronous part, d1 left 40 ms after its admission and was counted at it. A send admitted
  // before the process stood still and taken after it is late by the same stall, and moved too (the jobs ask in turn).
  const { restamped, stamps, heldUntil } = await restampsWith(0, 0, 40);
  assert.deepEqual(restamped[0], { id: 'd1', at: stamps.get('d1') }, 'd1’s entry moved, from its admission');
  const others = restamped.slice(1);
  assert.ok(
    others.every((r) => r.at === stamps.get(r.id) && r.at < heldUntil),
    `only sends admitted while d1 was held are moved beside it: ${JSON.stringify({ others, heldUntil })}`,
  );
});

test("the store's clock 1 s behind or ahead of the worker's: a send is late by its own stall alone, never by the skew", async () => {
  // Judged as the worker's Date.now() at the request minus the store's stamp, every send was late 1 s behind (one more UPDATE
  // each) and none 1 s ahead (the stalled one counted at its admission).
  for (const skewMs of [-1000, 1000]) {
    const { restamped, stamps } = await restampsWith(skewMs, 40);
    assert.deepEqual(restamped, [{ id: 'd1', at: stamps.get('d1') }], `store ${skewMs < 0 ? 'behind' : 'ahead'}: d1 alone, from its admission`);
  }
  const { restamped } = await restampsWith(-1000, 0);
  assert.deepEqual(restamped, [], 'on time, none moved');
});

test("a capped send refused while its row was locked (admit-send.ts `locked`: a lease renewal's moment) asks again and is given back then, not let go to wait out its lease", async () => {
  const fake = fakeDeps(() => 0);
  const verdicts: TAdmission[] = [
    { admitted: false, waitMs: 800, givenBack: false, locked: true },
    { admitted: false, waitMs: 790, givenBack: true, locked: false },
  ];
  let asked = 0;
  fake.deps.admit = async () => verdicts[asked++] ?? { admitted: true, at: Date.now() };
  fake.due([{ ...job(1), target: { ...job(1).target!, rateLimit: 20 } }]);
  const worker = await runWorker(fake.deps, CONFIG);
  try {
    await until(() => worker.stats().deferred + worker.stats().released > 0, 30_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.equal(asked, 2, 'asked again after the locked refusal');
  assert.deepEqual([worker.stats().deferred, worker.stats().released], [1, 0], 'given back (deferred), not let go');
  assert.deepEqual(fake.sent, [], 'not sent');
});

test("a capped webhook's jobs in one worker ask its limiter one at a time, in the order they started; another webhook's beside them", async () => {
  const fake = fakeDeps(() => 0);
  const asked: string[] = [];
  const asking = new Map<string, number>();
  let most = 0;
  fake.deps.admit = async (claim) => {
    asked.push(claim.id);
    const n = (asking.get(claim.webhookId) ?? 0) + 1;
    asking.set(claim.webhookId, n);
    most = Math.max(most, n);
    await sleep(5); // the statement's round trip
    asking.set(claim.webhookId, n - 1);
    return { admitted: true, at: Date.now() };
  };
  const capped = (i: number, webhookId: string): TDeliveryJob => {
    const j = job(i, `http://127.0.0.1:9/${webhookId}`);
    return { claim: { ...j.claim, webhookId }, target: { ...j.target!, rateLimit: 20 } };
  };
  fake.due([1, 2, 3, 4, 5, 6].map((i) => capped(i, i === 3 ? 'wh_other' : 'wh_capped')));
  const worker = await runWorker(fake.deps, CONFIG);
  try {
    await until(() => fake.recorded.length === 6, 30_000);
  } finally {
    await worker.stop(1_000);
  }
  assert.equal(most, 1, 'never two of one webhook asking at once (five asking together queued on its log row)');
  assert.deepEqual(
    asked.filter((id) => id !== 'd3'),
    ['d1', 'd2', 'd4', 'd5', 'd6'],
    'in order',
  );
  assert.ok(asked.indexOf('d3') < 2, `the other webhook's asks at once, not behind them: ${asked.join()}`);
});
