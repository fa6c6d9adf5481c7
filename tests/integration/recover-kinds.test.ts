// Own app: a retry schedule of an hour, so failed messages stay failed while the test recovers them.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../helpers/app';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';

// Issue 21 item 5, beside the failed-for-good recover (operations.test.ts): "retry now" for the
// messages of a window that wait for a retry (EXT /v1/webhooks/{id}/retry-pending: each is attempted
// now as the next step of its schedule, which resumes after), and the console's "re-send" of the
// messages the service counts as delivered whose arrival at this console's receiver failed
// verification (/api/webhooks/{id}/resend-delivered: preview count, one run, audited). Real app,
// worker, an outside receiver and the console's own receivers; the retry schedule is 1 h, so
// nothing is retried unless asked.

type TStarted = Awaited<ReturnType<typeof startApp>>;
let app: TStarted;
let tok: string;
let otherTok: string;
let cookie: string;
let apiKey = '';
let outside: TReceiver;
const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

const api = (method: string, path: string, body?: unknown, t = tok) => call(app, method, path, { token: t, body });
const staff = (method: string, path: string, body?: unknown, headers: Record<string, string> = { cookie }) => call(app, method, path, { body, headers });
const q = (window: { since: string; until?: string }) => new URLSearchParams(window).toString();
const message = async (w: string, id: string) => (await api('GET', `/v1/webhooks/${w}/messages/${id}`)).body;
const attempts = async (w: string, id: string) =>
  (await api('GET', `/v1/webhooks/${w}/messages/${id}/attempts?pageLimit=100`)).body.results as {
    status: string;
    triggerType: string;
    responseStatusCode: number;
  }[];

/** A grant of the test's Connect; resolves with its message id once the service has queued it. */
async function grant(i: number): Promise<string> {
  const g = await call(app, 'POST', '/v1/grants', {
    token: tok,
    body: { amount: 1000 + i, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: `Hopper${i}`, email: `grace-${i}@example.org` },
    headers: { 'x-service-api-key': apiKey },
  });
  assert.equal(g.status, 201, g.text);
  return eventually(
    async () => (await api('GET', `/v1/messages?tag=grant:${g.body.id}`)).body.results?.[0]?.id as string | undefined,
    10000,
    'the grant message',
  );
}

async function webhook(url: string, key: string, description: string): Promise<string> {
  const w = await api('POST', '/v1/webhooks', { url, eventTypes: ['grant.succeeded'], description, secret: key });
  assert.equal(w.status, 201, w.text);
  return w.body.id;
}

before(async () => {
  app = await startApp({ accounts: ['other'], env: { DELIVERY_RETRY_SCHEDULE: '3600,3600' } });
  [tok, otherTok, cookie] = await Promise.all([token(app), token(app, app.clients.other), staffCookie(app)]);
  outside = await startReceiver();
  const np = await api('POST', '/v1/nonprofits', { ein: `48${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, user: { email: 'ops@example.org' } });
  const c = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
  apiKey = (await api('GET', `/v1/connects/${c.body.id}`)).body.apiKey;
});
after(async () => {
  await app?.stop();
  await outside?.close();
});

/** Disabled at the end of a test, so the next test's grants do not reach its webhooks. */
const disable = (...ids: string[]) =>
  Promise.all(ids.map(async (id) => assert.equal((await api('PATCH', `/v1/webhooks/${id}`, { disabled: true })).status, 200)));

describe('retry now (EXT /v1/webhooks/{id}/retry-pending)', () => {
  test('the messages waiting for a retry are attempted now and their schedules resume from there; another webhook and other windows are untouched', async () => {
    // The receiver answers 500 except to the messages let through.
    const ok = new Set<string>();
    const reply = (req: { headers: Record<string, unknown> }) => ({ status: ok.has(String(req.headers['webhook-id'])) ? 200 : 500 });
    const W = await webhook(outside.endpoint(reply).url, secret(), 'retry now');
    const other = await webhook(outside.endpoint(() => ({ status: 500 })).url, secret(), 'retry now: another webhook');
    const since = new Date(Date.now() - 1000).toISOString();
    const [m1, m2] = [await grant(1), await grant(2)];
    const waiting = async (w: string, id: string, n: number) => {
      const m = await message(w, id);
      return m.status === 'pending' && m.attemptCount === n ? m : null;
    };
    await eventually(
      async () => (await Promise.all([waiting(W, m1, 1), waiting(W, m2, 1), waiting(other, m1, 1), waiting(other, m2, 1)])).every(Boolean),
      15000,
      'the first attempts to fail',
    );

    const preview = await api('GET', `/v1/webhooks/${W}/retry-pending?${q({ since })}`);
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.messages, 2);
    assert.equal(preview.body.since, since);
    assert.equal(
      (await api('GET', `/v1/webhooks/${W}/retry-pending?${q({ since, until: new Date(Date.parse(since) + 500).toISOString() })}`)).body.messages,
      0,
      'a window before both',
    );
    assert.equal((await api('GET', `/v1/webhooks/${W}/recover?${q({ since })}`)).body.messages, 0, 'none has failed for good');

    // First retry now: both fail again, which counts as their second attempt; the next waits for the schedule's second delay (1 h ± 20 %).
    const first = await api('POST', `/v1/webhooks/${W}/retry-pending`, { since });
    assert.equal(first.status, 202, first.text);
    assert.equal(first.body.messages, 2);
    assert.ok(Date.parse(first.body.dueAt) >= Date.parse(since));
    const [a1, a2] = await eventually(
      async () => {
        const both = await Promise.all([waiting(W, m1, 2), waiting(W, m2, 2)]);
        return both.every(Boolean) ? both : null;
      },
      15000,
      'the retries made now',
    );
    for (const m of [a1!, a2!]) assert.ok(Date.parse(m.nextAttempt) - Date.now() > 0.75 * 3600_000, `the next retry waits for the schedule: ${m.nextAttempt}`);
    assert.deepEqual(
      (await attempts(W, m1)).map((a) => a.triggerType),
      ['scheduled', 'scheduled'],
      'a retry now is a step of the schedule',
    );
    assert.equal((await message(other, m1)).attemptCount, 1, "another webhook's retries wait");
    assert.equal((await api('GET', `/v1/webhooks/${W}/retry-pending?${q({ since })}`)).body.messages, 2, 'both wait for a retry again');

    // The receiver is fixed for m1 only. Second retry now: m1 is delivered; m2's third attempt was the schedule's last: it ends failed.
    ok.add(m1);
    assert.equal((await api('POST', `/v1/webhooks/${W}/retry-pending`, { since })).body.messages, 2);
    await eventually(
      async () => (await message(W, m1)).status === 'success' && (await message(W, m2)).status === 'failed',
      15000,
      'm1 delivered and m2 failed',
    );
    assert.deepEqual((await attempts(W, m1)).map((a) => a.status).sort(), ['failed', 'failed', 'success']);
    assert.equal((await attempts(W, m2)).length, 3);
    assert.equal((await api('GET', `/v1/webhooks/${W}/retry-pending?${q({ since })}`)).body.messages, 0);
    assert.equal((await api('GET', `/v1/webhooks/${W}/recover?${q({ since })}`)).body.messages, 1, 'm2 is now for recover');
    const none = await api('POST', `/v1/webhooks/${W}/retry-pending`, { since });
    assert.equal(none.status, 202);
    assert.equal(none.body.messages, 0);
    assert.equal((await message(other, m2)).attemptCount, 1);
    await disable(W, other);
  });

  test('bad windows are 400s naming the field, other accounts and unknown webhooks 404, a disabled webhook 409, other methods 405', async () => {
    const W = await webhook(outside.endpoint().url, secret(), 'retry now: refusals');
    const future = new Date(Date.now() + 3600_000).toISOString();
    const now = new Date().toISOString();
    const cases: [unknown, string][] = [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: future }, 'since'],
      [{ since: now, until: now }, 'until'],
      [{ since: new Date(Date.now() - 15 * 86_400_000).toISOString() }, 'since'],
      [{ since: now, extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const p = assertProblem(await api('POST', `/v1/webhooks/${W}/retry-pending`, body), 400);
      if (field)
        assert.ok(
          p.errors.some((e: { path: string }) => e.path === field),
          `${JSON.stringify(body)} names ${field}`,
        );
    }
    assert.ok(
      assertProblem(await api('GET', `/v1/webhooks/${W}/retry-pending?since=${encodeURIComponent(future)}`), 400).errors.some(
        (e: { path: string }) => e.path === 'since',
      ),
    );
    assertProblem(await api('POST', `/v1/webhooks/${W}/retry-pending`, { since: now }, otherTok), 404);
    assertProblem(await api('GET', `/v1/webhooks/${W}/retry-pending?since=${encodeURIComponent(now)}`, undefined, otherTok), 404);
    assertProblem(await api('POST', '/v1/webhooks/ep_2bUnknownUnknownUnknown00000/retry-pending', { since: now }), 404);
    await disable(W);
    assertProblem(await api('POST', `/v1/webhooks/${W}/retry-pending`, { since: now }), 409, /disabled/);
    assertProblem(await api('PUT', `/v1/webhooks/${W}/retry-pending`, { since: now }), 405);
  });
});

describe('re-send delivered messages that failed at the receiver (/api/webhooks/{id}/resend-delivered)', () => {
  test('a delivered message whose receipt had a bad signature is counted, re-sent once after the receiver secret is fixed, verified, and audited', async () => {
    const S = secret();
    // The receiver holds another secret: it answers 200 (the service counts the message delivered) but the signature fails.
    const r = await staff('POST', '/api/receivers', { name: 'Wrong secret', secret: secret() });
    assert.equal(r.status, 201, r.text);
    const W = await webhook(r.body.ingestUrl, S, 're-send: wrong secret');
    // A healthy one beside it, and one whose receiver answered 500 first and was then fixed and retried: neither is counted.
    const good = await staff('POST', '/api/receivers', { name: 'Right secret', secret: S });
    const healthy = await webhook(good.body.ingestUrl, S, 're-send: healthy');
    const S3 = secret();
    const r3 = await staff('POST', '/api/receivers', { name: 'Answered 500 first', secret: S3 });
    assert.equal((await staff('PATCH', `/api/receivers/${r3.body.id}`, { responseStatus: 500 })).status, 200);
    const fixedLater = await webhook(r3.body.ingestUrl, S3, 're-send: fixed and retried');
    const since = new Date(Date.now() - 1000).toISOString();

    const m1 = await grant(11);
    await eventually(
      async () => (await message(W, m1)).status === 'success' && (await message(healthy, m1)).status === 'success',
      15000,
      'm1 delivered to both',
    );
    await eventually(
      async () => (await message(fixedLater, m1)).status === 'pending' && (await message(fixedLater, m1)).attemptCount === 1,
      15000,
      'm1 answered 500 at the third',
    );
    assert.equal((await staff('PATCH', `/api/receivers/${r3.body.id}`, { responseStatus: 200 })).status, 200);
    assert.equal((await api('POST', `/v1/webhooks/${fixedLater}/retry-pending`, { since })).body.messages, 1);
    await eventually(async () => (await message(fixedLater, m1)).status === 'success', 15000, 'm1 retried to the third');

    const timeline = await staff('GET', `/api/webhooks/${W}/timeline`);
    assert.equal(timeline.body.messages.find((m: { id: string }) => m.id === m1)?.reconciliation, 'received-bad-signature');

    const preview = await staff('GET', `/api/webhooks/${W}/resend-delivered?${q({ since })}`);
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.messages, 1);
    assert.deepEqual(preview.body.messageIds, [m1]);
    assert.equal(preview.body.receiver?.id, r.body.id);
    assert.equal(preview.body.truncated, false);
    for (const w of [healthy, fixedLater])
      assert.equal((await staff('GET', `/api/webhooks/${w}/resend-delivered?${q({ since })}`)).body.messages, 0, `${w}: nothing to re-send`);

    // The receiver gets the webhook's secret; one run re-sends the message, and this time it verifies.
    assert.equal((await staff('PATCH', `/api/receivers/${r.body.id}`, { secrets: [S] })).status, 200);
    const run = await staff('POST', `/api/webhooks/${W}/resend-delivered`, { since });
    assert.equal(run.status, 200, run.text);
    assert.match(run.body.id, /^rsnd_[0-9A-Za-z]{27}$/);
    assert.deepEqual(
      { messages: run.body.messages, succeeded: run.body.succeeded, failed: run.body.failed, refused: run.body.refused, verified: run.body.verified },
      { messages: preview.body.messages, succeeded: 1, failed: 0, refused: 0, verified: 1 },
      'the run re-sent what the preview counted',
    );
    assert.deepEqual((await attempts(W, m1)).map((a) => a.triggerType).sort(), ['manual', 'scheduled']);
    assert.equal((await attempts(healthy, m1)).length, 1, 'the healthy webhook got nothing more');
    assert.equal((await staff('GET', `/api/webhooks/${W}/resend-delivered?${q({ since })}`)).body.messages, 0, 'nothing left once it verified');
    const after = await staff('GET', `/api/webhooks/${W}/timeline`);
    assert.equal(after.body.messages.find((m: { id: string }) => m.id === m1)?.receipts.at(-1)?.verdict, 'valid');

    const audit = await staff('GET', `/api/audit?action=webhook.resend-delivered&target=${W}`);
    assert.equal(audit.status, 200, audit.text);
    assert.equal(audit.body.results.length, 1);
    const [entry] = audit.body.results;
    assert.equal(entry.result, 'ok');
    assert.equal(entry.target, `${W} ${run.body.id}`);
    assert.equal(entry.detail.messages, 1);
    assert.equal(entry.detail.verified, 1);
    await disable(W, healthy, fixedLater);
  });

  test('bad input is a 400 naming the field and sends nothing; no session 401; an unknown webhook 404; a disabled one 409 (audited)', async () => {
    const r = await staff('POST', '/api/receivers', { name: 'Refusals', secret: secret() });
    const W = await webhook(r.body.ingestUrl, secret(), 're-send: refusals');
    const m = await grant(21);
    await eventually(async () => (await message(W, m)).status === 'success', 15000, 'delivered with a bad signature');
    const since = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 3600_000).toISOString();
    const cases: [unknown, string][] = [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: future }, 'since'],
      [{ since, until: since }, 'until'],
      [{ since: new Date(Date.now() - 15 * 86_400_000).toISOString() }, 'since'],
      [{ since, extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const p = assertProblem(await staff('POST', `/api/webhooks/${W}/resend-delivered`, body), 400);
      if (field)
        assert.ok(
          p.errors.some((e: { path: string }) => e.path === field),
          `${JSON.stringify(body)} names ${field}`,
        );
    }
    assert.ok(
      assertProblem(await staff('GET', `/api/webhooks/${W}/resend-delivered?since=soon`), 400).errors.some((e: { path: string }) => e.path === 'since'),
    );
    assert.equal((await attempts(W, m)).length, 1, 'nothing was re-sent');
    assertProblem(await staff('POST', `/api/webhooks/${W}/resend-delivered`, { since }, {}), 401);
    assertProblem(await staff('GET', `/api/webhooks/ep_2bUnknownUnknownUnknown00000/resend-delivered?since=${encodeURIComponent(since)}`), 404);
    assert.equal((await staff('GET', `/api/webhooks/${W}/resend-delivered?${q({ since })}`)).body.messages, 1);
    await disable(W);
    assertProblem(await staff('POST', `/api/webhooks/${W}/resend-delivered`, { since }), 409, /disabled/);
    assert.equal((await attempts(W, m)).length, 1, 'nothing was re-sent to a disabled webhook');
    const audit = await staff('GET', `/api/audit?action=webhook.resend-delivered&target=${W}`);
    assert.deepEqual(
      audit.body.results.map((e: { result: string }) => e.result),
      ['conflict'],
    );
  });

  test('a run whose re-sends the receiver still does not verify stops after 8 and says how many it did not send', async () => {
    const r = await staff('POST', '/api/receivers', { name: 'Never fixed', secret: secret() });
    const W = await webhook(r.body.ingestUrl, secret(), 're-send: never fixed');
    const since = new Date(Date.now() - 1000).toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await grant(30 + i));
    await eventually(
      async () => (await Promise.all(ids.map((id) => message(W, id)))).every((m) => m.status === 'success'),
      20000,
      'ten delivered with bad signatures',
    );
    assert.equal((await staff('GET', `/api/webhooks/${W}/resend-delivered?${q({ since })}`)).body.messages, 10);
    const run = await staff('POST', `/api/webhooks/${W}/resend-delivered`, { since });
    assert.equal(run.status, 200, run.text);
    assert.deepEqual(
      { messages: run.body.messages, succeeded: run.body.succeeded, verified: run.body.verified, skipped: run.body.skipped, refused: run.body.refused },
      { messages: 10, succeeded: 8, verified: 0, skipped: 2, refused: 0 },
    );
    const manual = (await Promise.all(ids.map((id) => attempts(W, id)))).map((list) => list.filter((a) => a.triggerType === 'manual').length);
    assert.equal(
      manual.reduce((a, b) => a + b, 0),
      8,
      'two were not sent',
    );
    assert.equal((await staff('GET', `/api/webhooks/${W}/resend-delivered?${q({ since })}`)).body.messages, 10, 'all ten still failed at the receiver');
    await disable(W);
  });
});
