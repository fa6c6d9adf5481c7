import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, token } from '../helpers/http';
import { startReceiver, verifyWith, type TReceiver } from '../helpers/receiver';

// Delivery end to end: the real app's worker signs and POSTs to a real receiver, which verifies
// every request with the standardwebhooks package (webhook-* and svix-* headers alike).

const ROOT = path.resolve(import.meta.dirname, '../..');
const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);

type TStarted = Awaited<ReturnType<typeof startApp>>;
let app: TStarted;
let receiver: TReceiver;
let tok: string;

before(async () => {
  [app, receiver] = await Promise.all([startApp(), startReceiver()]);
  tok = await token(app);
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

async function subscribe(a: Pick<TApp, 'baseUrl'>, t: string, ep: ReturnType<TReceiver['endpoint']>) {
  const res = await call(a, 'POST', '/v1/webhooks', { token: t, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
  assert.equal(res.status, 201, res.text);
  const secret = (await call(a, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: t })).body.key as string;
  ep.expectSecrets(secret);
  return { id: res.body.id as string, secret };
}

const messagePath = (w: string, m: string) => `/v1/webhooks/${w}/messages/${m}`;

async function messageWhen(a: Pick<TApp, 'baseUrl'>, t: string, w: string, m: string, status: string, ms = 20000) {
  return eventually(async () => {
    const r = await call(a, 'GET', messagePath(w, m), { token: t });
    return r.body.status === status && r.body;
  }, ms, `message ${m} to be ${status}`);
}

async function attemptsOf(a: Pick<TApp, 'baseUrl'>, t: string, w: string, m: string) {
  const r = await call(a, 'GET', `${messagePath(w, m)}/attempts?pageLimit=100`, { token: t });
  assert.equal(r.status, 200, r.text);
  return (r.body.results as { id: string; status: string; responseStatusCode: number; timestamp: string; triggerType: string }[]).reverse();
}

async function sendTest(a: Pick<TApp, 'baseUrl'>, t: string, w: string): Promise<string> {
  const res = await call(a, 'POST', `/v1/webhooks/${w}/test`, { token: t });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

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
    assert.deepEqual(attempts.map((a) => [a.status, a.responseStatusCode]), [['failed', 500], ['failed', 500], ['success', 200]]);
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
    assert.deepEqual(attempts.map((a) => a.responseStatusCode), [302, 200]);
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
    t.diagnostic(`50 deliveries in ${seconds.toFixed(2)} s: ${(50 / seconds).toFixed(1)} deliveries/s (${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'}, in-process worker)`);
    await sleep(1000);
    const seen = ep.requests().map((r) => String(r.headers['webhook-id']));
    assert.equal(seen.length, 50);
    assert.deepEqual(new Set(seen), ids);
    assert.ok(ep.requests().every((r) => r.verified));
  });
});

describe('npm run worker', () => {
  test('on the embedded store, a second process is refused with a clear message', { skip: ON_POSTGRES && 'PGlite only: PostgreSQL allows any number of workers' }, async () => {
    await assert.rejects(runCli('worker', [], app.env), (err: Error & { stderr?: string; code?: number }) => {
      assert.equal(err.code, 1);
      assert.match(err.stderr ?? '', /in use by another process/);
      assert.match(err.stderr ?? '', /DATABASE_URL/);
      return true;
    });
  });
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
      const [attempt] = await eventually(async () => {
        const list = await attemptsOf(guarded, gtok, res.body.id, msgId);
        return list.length > 0 && list;
      }, 15000, 'the refused attempt');
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
    const next = await sendTest(guarded, gtok, w);
    await eventually(async () => (await attemptsOf(guarded, gtok, w, next)).length >= 1, 15000, 'a new attempt');
    assert.equal((await call(guarded, 'GET', `/v1/webhooks/${w}`, { token: gtok })).body.disabled, false);
  });
});

describe('a worker killed mid-attempt', () => {
  test('the lease expires and the message is delivered again after a restart', async () => {
    const crashy = await startApp({ env: { DELIVERY_LEASE_MS: '2000' } });
    try {
      const ctok = await token(crashy);
      let release: () => void = () => {};
      const held = new Promise<void>((r) => (release = r));
      const ep = receiver.endpoint((_r, n) => (n === 1 ? { hold: held } : { status: 200 }));
      const w = await subscribe(crashy, ctok, ep);
      const msgId = await sendTest(crashy, ctok, w.id);
      await eventually(async () => ep.requests().length === 1, 15000, 'the first attempt to arrive');
      await crashy.kill();
      release();
      await crashy.restart({ DELIVERY_LEASE_MS: '2000' });
      const ctok2 = await token(crashy);
      const msg = await messageWhen(crashy, ctok2, w.id, msgId, 'success', 20000);
      const ids = ep.requests().map((r) => r.headers['webhook-id']);
      assert.deepEqual(ids, [msgId, msgId], 'the receiver saw the same message twice');
      assert.ok(ep.requests().every((r) => r.verified && r.verifiedSvix));
      const attempts = await attemptsOf(crashy, ctok2, w.id, msgId);
      assert.equal(attempts.at(-1)?.status, 'success');
      assert.equal(msg.attemptCount, attempts.length);
    } finally {
      await crashy.stop();
    }
  });
});

describe('several processes on PostgreSQL', () => {
  test('two web processes and two `npm run worker` processes: every message delivered, no attempt run twice at once', { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL: the embedded store belongs to one process' }, async (t) => {
    const web1 = await startApp({ env: { WORKER_IN_PROCESS: 'false' } });
    const web2 = await startApp({ env: { WORKER_IN_PROCESS: 'false', DATABASE_URL: web1.env.DATABASE_URL } });
    const workers: { proc: ChildProcess; out: string }[] = [];
    try {
      const [tok1, tok2] = [await token(web1), await token(web2)];
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
      for (let i = 0; i < 2; i++) {
        const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/worker.ts')], {
          cwd: ROOT,
          env: { ...process.env, ...web1.env, DELIVERY_CONCURRENCY: '4' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const entry = { proc, out: '' };
        proc.stdout!.on('data', (d) => (entry.out += d));
        proc.stderr!.on('data', (d) => (entry.out += d));
        workers.push(entry);
      }
      await eventually(async () => workers.every((x) => /worker .* started/.test(x.out)), 30000, 'both workers to start');
      const started = Date.now();
      const ids = new Set<string>();
      for (let i = 0; i < 60; i += 10) {
        const [web, tok] = i % 20 === 0 ? [web1, tok1] : [web2, tok2];
        for (const id of await Promise.all(Array.from({ length: 10 }, () => sendTest(web, tok, w.id)))) ids.add(id);
      }
      await eventually(async () => [...ids].every((id) => (arrivals.get(id) ?? 0) >= ([...arrivals.keys()].indexOf(id) % 3 === 0 ? 2 : 1)), 30000, 'every message acknowledged');
      t.diagnostic(`2 web + 2 workers: 60 messages (20 retried) in ${((Date.now() - started) / 1000).toFixed(2)} s`);
      await sleep(1500);
      assert.equal(ids.size, 60);
      assert.ok([...ids].every((id) => arrivals.has(id)), 'every message reached the receiver');
      assert.deepEqual(overlaps, [], 'no message was sent by two workers at once');
      for (const id of ids) {
        const attempts = await attemptsOf(web2, tok2, w.id, id);
        const received = ep.requests().filter((r) => String(r.headers['webhook-id']) === id).length;
        assert.equal(attempts.length, received, `${id}: one attempt row per request the receiver got`);
        assert.equal(attempts.at(-1)?.status, 'success', `${id}: delivered`);
      }
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
      assert.equal(counts[0] + counts[1], ep.requests().length, workers.map((x) => x.out).join('\n'));
      assert.ok(counts.every((c) => c > 0), `both workers delivered: ${counts.join(', ')}`);
    } finally {
      for (const x of workers) if (x.proc.exitCode === null) x.proc.kill('SIGKILL');
      await web2.stop();
      await web1.stop();
    }
  });
});
