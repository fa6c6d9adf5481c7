import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runCli } from '../helpers/app';
import { attemptsOf, freshBesideSlowBacklog, messagePath, messageWhen, sendTest, subscribe } from '../helpers/delivery';
import { assertProblem, call, eventually, sleep, token } from '../helpers/http';
import { startReceiver, verifyWith, type TReceiver } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// Delivery end to end: the real app's worker signs and POSTs to a real receiver, which verifies
// every request with the standardwebhooks package (webhook-* and svix-* headers alike).

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

// The suite's shared app (tests/helpers/shared-app.ts): this file's own account, receiver and webhooks.
let app: TSharedApp;
let receiver: TReceiver;
let tok: string;

before(async () => {
  [app, receiver] = await Promise.all([sharedApp(), startReceiver()]);
  tok = await token(app);
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

describe('delivery', () => {
  test('a test event arrives signed, verifiable, and shows in messages and attempts', async () => {
    const ep = receiver.endpoint(() => ({ status: 200, body: 'thanks' }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    const msg = await messageWhen(app, tok, w.id, msgId, 'success');
    const [req] = ep.requests();
    assert.equal(ep.requests().length, 1);
    assert.ok(req.verified, 'webhook-* headers verify');
    assert.ok(req.verifiedSvix, 'svix-* headers verify');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.match(String(req.headers['user-agent']), /GivingConnect/);
    assert.equal(req.headers['webhook-id'], msgId);
    assert.equal(req.headers['svix-id'], msgId);
    assert.equal(req.headers['webhook-timestamp'], req.headers['svix-timestamp']);
    assert.ok(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.match(String(req.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]+=*$/);
    assert.deepEqual(JSON.parse(req.body), msg.payload);
    assert.equal(msg.attemptCount, 1);
    assert.equal(msg.nextAttempt, null);
    const attempts = await attemptsOf(app, tok, w.id, msgId);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0].status, 'success');
    assert.equal(attempts[0].responseStatusCode, 200);
    assert.equal(attempts[0].triggerType, 'scheduled');
    const one = await call(app, 'GET', `/v1/webhooks/${w.id}/attempts/${attempts[0].id}`, { token: tok });
    assert.equal(one.body.response, 'thanks');
  });

  test('a grant created through POST /v1/grants reaches the receiver as grant.succeeded', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const ein = `12${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const np = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein, user: { email: 'owner@example.org' } } });
    assert.equal(np.status, 201, np.text);
    const created = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
    assert.equal(created.status, 201, created.text);
    const connect = await call(app, 'GET', `/v1/connects/${created.body.id}`, { token: tok });
    const grant = await call(app, 'POST', '/v1/grants', {
      token: tok,
      headers: { 'x-service-api-key': connect.body.apiKey },
      body: { amount: 15000, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
    });
    assert.equal(grant.status, 201, grant.text);
    await eventually(async () => ep.requests().length >= 1, 15000, 'the grant event');
    const [req] = ep.requests();
    assert.ok(req.verified && req.verifiedSvix);
    const event = JSON.parse(req.body);
    assert.equal(event.type, 'grant.succeeded');
    assert.deepEqual(event.data, grant.body);
    await messageWhen(app, tok, w.id, String(req.headers['webhook-id']), 'success');
  });

  test('a receiver failing twice then succeeding: three attempts and a success message', async () => {
    const ep = receiver.endpoint((_r, n) => (n <= 2 ? { status: 500, body: `fail ${n}` } : { status: 200 }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    const msg = await messageWhen(app, tok, w.id, msgId, 'success');
    assert.equal(msg.attemptCount, 3);
    const attempts = await attemptsOf(app, tok, w.id, msgId);
    assert.deepEqual(
      attempts.map((a) => [a.status, a.responseStatusCode]),
      [
        ['failed', 500],
        ['failed', 500],
        ['success', 200],
      ],
    );
    assert.equal(new Set(ep.requests().map((r) => r.headers['webhook-id'])).size, 1, 'the same webhook-id on every retry');
    assert.ok(ep.requests().every((r) => r.verified && r.verifiedSvix));
    const failed = await call(app, 'GET', `/v1/webhooks/${w.id}/attempts/${attempts[0].id}`, { token: tok });
    assert.equal(failed.body.response, 'fail 1');
  });

  test('a redirect is a failure and is not followed; a long response body is cut at 20 000 bytes', async () => {
    const target = receiver.endpoint();
    const ep = receiver.endpoint((_r, n) => (n === 1 ? { status: 302, headers: { location: target.url } } : { status: 200, body: 'x'.repeat(50_000) }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    await messageWhen(app, tok, w.id, msgId, 'success');
    const attempts = await attemptsOf(app, tok, w.id, msgId);
    assert.deepEqual(
      attempts.map((a) => a.responseStatusCode),
      [302, 200],
    );
    assert.equal(attempts[0].status, 'failed');
    assert.equal(target.requests().length, 0, 'the redirect was not followed');
    const big = await call(app, 'GET', `/v1/webhooks/${w.id}/attempts/${attempts[1].id}`, { token: tok });
    assert.equal(big.body.response.length, 20_000);
  });

  test('410 Gone disables the webhook and ends the retries', async () => {
    const ep = receiver.endpoint(() => ({ status: 410 }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    const msg = await messageWhen(app, tok, w.id, msgId, 'failed');
    assert.equal(msg.attemptCount, 1);
    assert.equal(msg.nextAttempt, null);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${w.id}`, { token: tok })).body.disabled, true);
    await sleep(1500);
    assert.equal(ep.requests().length, 1, 'no retry after 410');
    assert.equal((await call(app, 'POST', `/v1/webhooks/${w.id}/test`, { token: tok })).status, 409);
  });

  test('after the last scheduled failure (8 attempts) the message is failed; resend then delivers it', async () => {
    let up = false;
    const ep = receiver.endpoint(() => ({ status: up ? 200 : 500 }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    const msg = await messageWhen(app, tok, w.id, msgId, 'failed', 30000);
    assert.equal(msg.attemptCount, 8);
    assert.equal(msg.nextAttempt, null);
    assert.equal((await attemptsOf(app, tok, w.id, msgId)).length, 8);
    await sleep(1500);
    assert.equal(ep.requests().length, 8, 'nothing after the schedule');
    up = true;
    const resent = await call(app, 'POST', `/v1/webhooks/${w.id}/messages/${msgId}/resend`, { token: tok });
    assert.equal(resent.status, 202, resent.text);
    assert.equal(resent.body.triggerType, 'manual');
    assert.equal(resent.body.status, 'success');
    const now = await call(app, 'GET', messagePath(w.id, msgId), { token: tok });
    assert.equal(now.body.status, 'success');
    assert.equal(now.body.attemptCount, 9);
  });

  test('after a rotation two signatures are sent and each verifies with its own secret', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const rotated = await call(app, 'POST', `/v1/webhooks/${w.id}/secret/rotate`, { token: tok });
    assert.equal(rotated.status, 200);
    ep.expectSecrets(w.secret, rotated.body.key);
    const msgId = await sendTest(app, tok, w.id);
    await messageWhen(app, tok, w.id, msgId, 'success');
    const [req] = ep.requests();
    const signatures = String(req.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    assert.ok(signatures.every((s) => s.startsWith('v1,')));
    assert.equal(req.headers['svix-signature'], req.headers['webhook-signature']);
    for (const key of [w.secret, rotated.body.key]) {
      assert.ok(verifyWith(key, req.body, req.headers, 'webhook'), 'webhook-* verifies with each secret');
      assert.ok(verifyWith(key, req.body, req.headers, 'svix'), 'svix-* verifies with each secret');
    }
    assert.ok(!verifyWith(`whsec_${Buffer.alloc(24, 7).toString('base64')}`, req.body, req.headers, 'webhook'), 'a third secret does not');
  });

  test('Retry-After on 503 is honoured within [delay, 2 × delay]', async () => {
    // The schedule is 1 s: without Retry-After the retry comes after 0.8–1.2 s; with "3600" it is
    // raised, but only up to 2 × the delay (1.6–2.4 s), so the message is still delivered soon.
    const ep = receiver.endpoint((_r, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 200 }));
    const w = await subscribe(app, tok, ep);
    const msgId = await sendTest(app, tok, w.id);
    await messageWhen(app, tok, w.id, msgId, 'success', 15000);
    const [first, second] = await attemptsOf(app, tok, w.id, msgId);
    const gap = Date.parse(second.timestamp) - Date.parse(first.timestamp);
    assert.ok(gap >= 1550, `retry after ${gap} ms, expected at least 1.6 s`);
    assert.ok(gap < 6000, `retry after ${gap} ms, expected at most about 2.4 s`);
  });

  test('a burst of 50 test events: each delivered exactly once (in-process worker)', async (t) => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const started = Date.now();
    const ids = new Set<string>();
    for (let i = 0; i < 50; i += 10) {
      for (const id of await Promise.all(Array.from({ length: 10 }, () => sendTest(app, tok, w.id)))) ids.add(id);
    }
    await eventually(async () => ep.requests().length >= 50, 30000, '50 deliveries');
    const seconds = (Date.now() - started) / 1000;
    t.diagnostic(
      `50 deliveries in ${seconds.toFixed(2)} s: ${(50 / seconds).toFixed(1)} deliveries/s (${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'}, in-process worker)`,
    );
    await sleep(1000);
    const seen = ep.requests().map((r) => String(r.headers['webhook-id']));
    assert.equal(seen.length, 50);
    assert.deepEqual(new Set(seen), ids);
    assert.ok(ep.requests().every((r) => r.verified));
  });
});

describe('EXT pause and resume', () => {
  const patch = (w: string, body: Record<string, unknown>) => call(app, 'PATCH', `/v1/webhooks/${w}`, { token: tok, body });

  test('a paused webhook queues and sends nothing while another delivers; resumed, its backlog goes out, each message once', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const paused = await patch(w.id, { paused: true });
    assert.equal(paused.status, 200, paused.text);
    assert.equal(paused.body.paused, true);
    assert.ok(Math.abs(Date.parse(paused.body.pausedAt) - Date.now()) < 60_000, `pausedAt ${paused.body.pausedAt}`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendTest(app, tok, w.id));
    // The worker claims them and parks them: pending, with no next attempt while the webhook is paused.
    await eventually(
      async () => {
        const all = await Promise.all(ids.map((id) => call(app, 'GET', messagePath(w.id, id), { token: tok })));
        return all.every((r) => r.body.status === 'pending' && r.body.nextAttempt === null && r.body.attemptCount === 0);
      },
      15000,
      "the paused webhook's messages parked",
    );
    // Another webhook's message, queued after them, is delivered meanwhile.
    const other = receiver.endpoint();
    const w2 = await subscribe(app, tok, other);
    await messageWhen(app, tok, w2.id, await sendTest(app, tok, w2.id), 'success');
    await sleep(500);
    assert.equal(ep.requests().length, 0, 'nothing was sent to the paused webhook');
    assert.equal((await call(app, 'GET', `/v1/webhooks/${w.id}`, { token: tok })).body.paused, true);
    const resumed = await patch(w.id, { paused: false });
    assert.equal(resumed.status, 200, resumed.text);
    assert.deepEqual([resumed.body.paused, resumed.body.pausedAt], [false, null]);
    for (const id of ids) await messageWhen(app, tok, w.id, id, 'success', 15000);
    await sleep(500);
    assert.deepEqual(
      ep
        .requests()
        .map((r) => String(r.headers['webhook-id']))
        .sort(),
      [...ids].sort(),
      'each queued message delivered once after the resume',
    );
    assert.ok(ep.requests().every((r) => r.verified));
  });

  test('pausing a paused webhook keeps its pausedAt; a resend, which would send at once, → 409; paused: "yes" → 400 naming the field, nothing changed', async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const first = await patch(w.id, { paused: true });
    const second = await patch(w.id, { paused: true });
    assert.equal(second.body.pausedAt, first.body.pausedAt);
    const msgId = await sendTest(app, tok, w.id);
    assertProblem(await call(app, 'POST', `${messagePath(w.id, msgId)}/resend`, { token: tok }), 409, /paused; resume it/);
    assert.equal(ep.requests().length, 0);
    assertProblem(await patch(w.id, { paused: 'yes' }), 400, /paused: must be true or false/);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${w.id}`, { token: tok })).body.pausedAt, first.body.pausedAt);
  });
});

describe('EXT rate cap', () => {
  test("capped at 1/s: the backlog waits in slots 1 s apart, oldest first, and drains at the cap; another webhook's message goes out while it waits", async () => {
    const ep = receiver.endpoint();
    const w = await subscribe(app, tok, ep);
    const capped = await call(app, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok, body: { rateLimit: 1 } });
    assert.equal(capped.status, 200, capped.text);
    assert.equal(capped.body.rateLimit, 1);
    const t0 = Date.now();
    const ids: string[] = [];
    // Twelve at 1/s: an 11 s backlog, long beside the time the twelve take to make and the other's delivery, even at CI's load.
    for (let i = 0; i < 12; i++) ids.push(await sendTest(app, tok, w.id));
    const other = receiver.endpoint();
    const w2 = await subscribe(app, tok, other);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${w2.id}`, { token: tok })).body.rateLimit, null);
    await messageWhen(app, tok, w2.id, await sendTest(app, tok, w2.id), 'success', 10000);
    // Those not sent yet wait for their slot, which is their next attempt: in order of creation, each 1 s or more after the one before.
    const states = await Promise.all(ids.map(async (id) => (await call(app, 'GET', messagePath(w.id, id), { token: tok })).body));
    const slots = states.filter((m) => m.status === 'pending').map((m) => Date.parse(m.nextAttempt));
    assert.ok(slots.length > 0, "the other webhook's message was delivered while the capped backlog still waited (not held behind it)");
    for (let i = 1; i < slots.length; i++) assert.ok(slots[i] - slots[i - 1] >= 999, `slot ${i}: ${slots[i] - slots[i - 1]} ms after the one before`);
    for (const id of ids) await messageWhen(app, tok, w.id, id, 'success', 30000);
    const got = ep.requests();
    assert.equal(got.length, 12, 'each once');
    assert.deepEqual(got.map((r) => String(r.headers['webhook-id'])).sort(), [...ids].sort(), 'each once');
    // Slots go oldest first, 1 s apart, the first no earlier than the first message: the k-th message arrives no sooner than
    // 1000·k ms after it. (Arrival order alone is not the rule: a worker woken late under load sends two slots that both passed
    // side by side, and the second may land first — CI read the 5th and 6th swapped.)
    const arrived = new Map(got.map((r) => [String(r.headers['webhook-id']), r.at]));
    ids.forEach((id, k) =>
      assert.ok(
        arrived.get(id)! - t0 >= 1000 * k - 50,
        `message ${k} came ${arrived.get(id)! - t0} ms after the first was made, before its slot at ${1000 * k} ms`,
      ),
    );
  });
});

describe('fair shares of the worker (issue 53.3)', () => {
  test("a slow webhook's backlog takes at most its endpoint's share of the slots: another webhook's fresh message goes out beside it, not behind it", async (t) => {
    // 96 messages to a receiver answering after 3 s, at most 8 in flight (DELIVERY_ENDPOINT_CONCURRENCY): a 36 s backlog. Held
    // behind it (as when every slot and every claim went to the oldest due deliveries), the fresh message went out once nearly all
    // of it had; beside it, with its first 8 in flight (here: 8 of 96 sent). A third of it allows the fresh message 9 s on a loaded
    // machine; a worker whose claims did not leave the full webhook out sent 46 first (scratch), the whole old worker more.
    const { sentBefore, maxInFlight } = await freshBesideSlowBacklog(app, tok, receiver, 96);
    t.diagnostic(`sent of the slow backlog when the fresh message was: ${sentBefore} of 96; at most ${maxInFlight} in flight`);
    assert.ok(sentBefore <= 32, `${sentBefore} of the slow webhook's 96 had been sent when the fresh message was: it waited behind them`);
    assert.ok(maxInFlight <= 8, `${maxInFlight} of the slow webhook's requests in flight at once (its endpoint's limit: 8)`);
  });
});

describe('npm run worker', () => {
  test(
    'on the embedded store, a second process is refused with a clear message',
    { skip: ON_POSTGRES && 'PGlite only: PostgreSQL allows any number of workers' },
    async () => {
      await assert.rejects(runCli('worker', [], app.env), (err: Error & { stderr?: string; code?: number }) => {
        assert.equal(err.code, 1);
        assert.match(err.stderr ?? '', /in use by another process/);
        assert.match(err.stderr ?? '', /DATABASE_URL/);
        return true;
      });
    },
  );
});
