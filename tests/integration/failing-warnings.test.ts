// Own app: a short disable threshold (DELIVERY_DISABLE_AFTER_MS).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../helpers/app';
import { assertProblem, call, eventually, token } from '../helpers/http';
import { startReceiver, type TReceiver, type TReceived } from '../helpers/receiver';

// Issue 39 items 1–2, the service's half: a webhook's failing stretch announced before it disables
// the webhook (EXT `failingSince` / `disablesAt` on the Webhook, the `webhook.failing` event at 50,
// 75 and 90 % of DELIVERY_DISABLE_AFTER_MS, driven by time, not by attempts), then the messages made
// while it was disabled sent to it after it is enabled again (EXT replay-missing). A real app and
// worker, a real receiver on loopback answering 500 and then 200. The threshold is 8 s and the retry
// schedule 1 s then 60 s, so after its second attempt nothing is attempted while the stretch passes
// 50, 75 and 90 % and reaches 100 %: the warnings and the disabling come from the sweep alone.

const THRESHOLD_MS = 8000;
type TStarted = Awaited<ReturnType<typeof startApp>>;
let app: TStarted;
let receiver: TReceiver;
let tok: string;
let apiKey = '';
let down = true;
let failing: ReturnType<TReceiver['endpoint']>;
let watch: ReturnType<TReceiver['endpoint']>;
let watchSecret = '';
let hook = '';
let beforeHook = '';

const api = (method: string, path: string, body?: unknown) => call(app, method, path, { token: tok, body });
const bodyOf = (r: TReceived) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, any> };
const q = (window: Record<string, string>) => new URLSearchParams(window).toString();

async function webhook(ep: ReturnType<TReceiver['endpoint']>, eventTypes: string[]) {
  const res = await api('POST', '/v1/webhooks', { url: ep.url, eventTypes });
  assert.equal(res.status, 201, res.text);
  const secret = (await api('GET', `/v1/webhooks/${res.body.id}/secret`)).body.key as string;
  ep.expectSecrets(secret);
  return { id: res.body.id as string, secret };
}

/** A grant of the test's Connect; resolves with its message id once the service has stored it. */
async function grant(i: number): Promise<string> {
  const g = await call(app, 'POST', '/v1/grants', {
    token: tok,
    body: { amount: 1000 + i, fundId: 'fidelity-charitable', firstName: 'Ida', lastName: `Wells${i}`, email: `ida-${i}@example.org` },
    headers: { 'x-service-api-key': apiKey },
  });
  assert.equal(g.status, 201, g.text);
  return eventually(
    async () => (await api('GET', `/v1/messages?tag=grant:${g.body.id}`)).body.results?.[0]?.id as string | undefined,
    10000,
    'the grant message',
  );
}

const warningsAbout = (id: string) => watch.requests().filter((r) => bodyOf(r).type === 'webhook.failing' && bodyOf(r).data.webhookId === id);

before(async () => {
  [app, receiver] = await Promise.all([
    startApp({ env: { DELIVERY_DISABLE_AFTER_MS: String(THRESHOLD_MS), DELIVERY_RETRY_SCHEDULE: '1,60' } }),
    startReceiver(),
  ]);
  tok = await token(app);
  const np = await api('POST', '/v1/nonprofits', { ein: `47${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, user: { email: 'ops@example.org' } });
  const c = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
  apiKey = (await api('GET', `/v1/connects/${c.body.id}`)).body.apiKey;
  watch = receiver.endpoint(() => ({ status: 200 }));
  watchSecret = (await webhook(watch, ['webhook.failing', 'webhook.disabled', 'webhook.recovered'])).secret;
  beforeHook = await grant(0); // made before the failing webhook existed: never replayed to it
  failing = receiver.endpoint(() => (down ? { status: 500, body: 'upstream down' } : { status: 200 }));
  // It subscribes to webhook.failing too: the warnings about itself must never come to it.
  hook = (await webhook(failing, ['grant.succeeded', 'webhook.failing'])).id;
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

describe('know before the donor does', () => {
  test('failingSince and disablesAt, then webhook.failing at 50, 75 and 90 % once each, signed, never to the webhook itself; then disabled', async () => {
    const fresh = (await api('GET', `/v1/webhooks/${hook}`)).body;
    assert.equal(fresh.failingSince, null);
    assert.equal(fresh.disablesAt, null);
    const first = await grant(1);
    const failingNow = await eventually(
      async () => {
        const w = (await api('GET', `/v1/webhooks/${hook}`)).body;
        return w.failingSince && w;
      },
      15000,
      'the failing stretch',
    );
    assert.equal(Date.parse(failingNow.disablesAt) - Date.parse(failingNow.failingSince), THRESHOLD_MS);
    const listed = (await api('GET', '/v1/webhooks?pageLimit=100')).body.results.find((w: { id: string }) => w.id === hook);
    assert.equal(listed.failingSince, failingNow.failingSince);
    assert.equal(listed.disablesAt, failingNow.disablesAt);

    const warnings = await eventually(async () => warningsAbout(hook).length >= 3 && warningsAbout(hook), 30000, 'three warnings');
    assert.deepEqual(
      warnings.map((r) => bodyOf(r).data.thresholdPercent),
      [50, 75, 90],
    );
    for (const r of warnings) {
      assert.ok(r.verified && r.verifiedSvix, 'signed (webhook-* and svix-*)');
      assert.deepEqual(bodyOf(r).data, {
        webhookId: hook,
        url: failing.url,
        failingSince: failingNow.failingSince,
        disablesAt: failingNow.disablesAt,
        thresholdPercent: bodyOf(r).data.thresholdPercent,
        lastError: '500: upstream down',
        waitingMessages: 1, // grant 1, waiting 60 s for its next retry: no attempt lands while the stretch passes the shares
      });
    }
    assert.equal((await api('GET', `/v1/webhooks/${hook}/messages/${first}`)).body.attemptCount, 2, 'no attempt since the second');
    // Each warning passed its share of the stretch (the service's own clock stamps the event).
    for (const r of warnings) {
      const { timestamp, data } = bodyOf(r);
      assert.ok(
        Date.parse(timestamp) >= Date.parse(data.failingSince) + (THRESHOLD_MS * data.thresholdPercent) / 100,
        `${data.thresholdPercent} % sent at ${timestamp}`,
      );
    }
    assert.ok(!failing.requests().some((r) => bodyOf(r).type === 'webhook.failing'), 'no warning about itself came to the failing webhook');

    // At disablesAt it is disabled by time alone — its next retry is still a minute away — and
    // webhook.disabled is sent once, naming the stretch's last failure; the warnings stay three.
    const disabled = await eventually(
      async () => {
        const w = (await api('GET', `/v1/webhooks/${hook}`)).body;
        return w.disabled && w;
      },
      15000,
      'the webhook disabled',
    );
    assert.ok(Date.parse(disabled.disabledAt) >= Date.parse(failingNow.disablesAt), `disabled at ${disabled.disabledAt}, not before ${failingNow.disablesAt}`);
    assert.match(disabled.disabledReason, /^failing with no success since /);
    assert.equal(disabled.disablesAt, null, 'a disabled webhook is not about to be disabled');
    assert.equal(disabled.failingSince, failingNow.failingSince, 'the stretch that disabled it');
    assert.equal((await api('GET', `/v1/webhooks/${hook}/messages/${first}`)).body.attemptCount, 2, 'no attempt was due: the sweep disabled it');
    const [notice] = await eventually(
      async () => {
        const got = watch.requests().filter((r) => bodyOf(r).type === 'webhook.disabled' && bodyOf(r).data.webhookId === hook);
        return got.length > 0 && got;
      },
      15000,
      'webhook.disabled',
    );
    assert.ok(notice.verified, 'signed');
    assert.deepEqual(
      { ...bodyOf(notice).data, lastAttemptId: null, lastAttemptAt: null },
      {
        webhookId: hook,
        url: failing.url,
        reason: disabled.disabledReason,
        disabledAt: disabled.disabledAt,
        recoveredAt: null,
        failingSince: failingNow.failingSince,
        trigger: 'delivery',
        messageId: first,
        messageEventType: 'grant.succeeded',
        attemptCount: 2,
        lastAttemptId: null,
        lastAttemptAt: null,
        lastResponseStatusCode: 500,
        lastError: '500: upstream down',
      },
    );
    assert.equal(warningsAbout(hook).length, 3);
    const notices = (await api('GET', `/v1/messages?tag=webhook:${hook}&eventType=webhook.disabled&pageLimit=100`)).body.results;
    assert.equal(notices.length, 1, 'one webhook.disabled, however many sweeps ran');
    const stored = (await api('GET', `/v1/messages?tag=webhook:${hook}&eventType=webhook.failing&pageLimit=100`)).body.results;
    assert.equal(stored.length, 3, 'one message per share, however many sweeps ran');
    assert.ok(watchSecret);
  });

  test('replay-missing: the messages made while it was disabled, once each, after it is enabled; a second preview counts 0', async () => {
    const since = new Date(Date.now() - 10 * 60_000).toISOString();
    const missed = [await grant(3), await grant(4), await grant(5)];
    const preview = await api('GET', `/v1/webhooks/${hook}/replay-missing?${q({ since })}`);
    assert.equal(preview.status, 200, preview.text);
    // Not grant 0 (before the webhook existed), nor 1 (it has a delivery), nor the warnings about itself.
    assert.equal(preview.body.messages, 3);
    assert.equal(preview.body.since, since);

    assertProblem(await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since }), 409, /disabled; enable it/);
    const until = new Date(Date.now() - 20 * 60_000).toISOString();
    const bad = assertProblem(await api('GET', `/v1/webhooks/${hook}/replay-missing?${q({ since, until })}`), 400);
    assert.match(JSON.stringify(bad), /until/);
    assert.match(JSON.stringify(assertProblem(await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since: 'yesterday' }), 400)), /since/);
    assertProblem(await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since, extra: 1 }), 400);
    assertProblem(await api('GET', `/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/replay-missing?${q({ since })}`), 404);
    assertProblem(await api('POST', `/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/replay-missing`, { since }), 404);

    down = false;
    assert.equal((await api('PATCH', `/v1/webhooks/${hook}`, { disabled: false })).status, 200);
    const started = await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since });
    assert.equal(started.status, 202, started.text);
    assert.equal(started.body.kind, 'replay-missing');
    assert.equal(started.body.messages, 3);
    assert.equal(started.headers.get('location'), `/v1/webhooks/${hook}/replay-missing/${started.body.id}`);
    const again = await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since });
    assert.equal(again.status, 202);
    assert.ok(again.body.id === started.body.id || again.body.messages === 0, 'the twin while it runs, nothing new after');
    const done = await eventually(
      async () => {
        const r = (await api('GET', `/v1/webhooks/${hook}/replay-missing/${started.body.id}`)).body;
        return r.status === 'done' && r;
      },
      20000,
      'the run to finish',
    );
    assert.deepEqual([done.succeeded, done.failed, done.remaining], [3, 0, 0]);
    assertProblem(await api('GET', `/v1/webhooks/${hook}/recover/${started.body.id}`), 404);
    const arrived = failing.requests().filter((r) => r.verified && missed.includes(String(r.headers['webhook-id'])));
    assert.deepEqual(arrived.map((r) => String(r.headers['webhook-id'])).sort(), [...missed].sort(), 'each missed message arrived once, signed');
    assert.ok(!failing.requests().some((r) => r.headers['webhook-id'] === beforeHook), 'nothing from before the webhook existed');
    assert.equal((await api('GET', `/v1/webhooks/${hook}/replay-missing?${q({ since })}`)).body.messages, 0);
    for (const id of missed) {
      const m = (await api('GET', `/v1/webhooks/${hook}/messages/${id}`)).body;
      assert.equal(m.status, 'success');
      assert.equal(m.lastAttempt.triggerType, 'manual');
    }
  });
});
