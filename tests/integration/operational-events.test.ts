import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { call, eventually, token } from '../helpers/http';
import { startReceiver, verifyWith, type TReceiver, type TReceived } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the events and their payloads are
// the same on any store).
// The operational events (EXT): webhook.disabled, message.attempt.exhausted, webhook.recovered,
// delivered by the real worker to webhooks that subscribe to them, signed (verified here with the
// standardwebhooks package), and never to the webhook they are about.

type TStarted = TSharedApp;
let app: TStarted;
let receiver: TReceiver;
let tok: string;
/** Subscribed to all three operational types; answers 200. */
let news: ReturnType<TReceiver['endpoint']>;
let newsSecret: string;
/** Subscribed to webhook.disabled only. */
let disabledOnly: ReturnType<TReceiver['endpoint']>;

async function webhook(ep: ReturnType<TReceiver['endpoint']>, eventTypes: string[]) {
  const res = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes } });
  assert.equal(res.status, 201, res.text);
  const secret = (await call(app, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: tok })).body.key as string;
  ep.expectSecrets(secret);
  return { id: res.body.id as string, secret };
}

async function sendTest(webhookId: string, eventType?: string): Promise<string> {
  const res = await call(app, 'POST', `/v1/webhooks/${webhookId}/test`, { token: tok, body: eventType ? { eventType } : {} });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

const bodyOf = (r: TReceived) => JSON.parse(r.body) as { type: string; timestamp: string; data: Record<string, any> };

/** The one event of `type` about `webhookId` that `ep` received, once it has. */
function eventAt(ep: ReturnType<TReceiver['endpoint']>, type: string, webhookId: string, extra: (d: Record<string, any>) => boolean = () => true) {
  return eventually(
    async () => {
      const found = ep.requests().filter((r) => bodyOf(r).type === type && bodyOf(r).data.webhookId === webhookId && extra(bodyOf(r).data));
      return found.length > 0 && found;
    },
    30_000,
    `${type} about ${webhookId}`,
  );
}

function assertSigned(r: TReceived, secret: string) {
  assert.equal(r.verified, true, 'webhook-* signature verifies with the standardwebhooks library');
  assert.equal(r.verifiedSvix, true, 'svix-* too');
  assert.equal(verifyWith(secret, r.body, r.headers, 'webhook'), true);
  assert.match(String(r.headers['webhook-id']), /^msg_/);
}

before(async () => {
  [app, receiver] = await Promise.all([sharedApp(), startReceiver()]);
  tok = await token(app);
  news = receiver.endpoint(() => ({ status: 200 }));
  disabledOnly = receiver.endpoint(() => ({ status: 200 }));
  newsSecret = (await webhook(news, ['webhook.disabled', 'message.attempt.exhausted', 'webhook.recovered'])).secret;
  await webhook(disabledOnly, ['webhook.disabled']);
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

describe('operational events', () => {
  test('message.attempt.exhausted: the last retry failed; sent signed to subscribers, never to the failing webhook itself', async () => {
    const failing = receiver.endpoint(() => ({ status: 500, body: 'database down' }));
    // It subscribes to the exhausted event too: the one about itself must not come back to it.
    const a = await webhook(failing, ['grant.succeeded', 'message.attempt.exhausted']);
    const messageId = await sendTest(a.id);
    const [event] = await eventAt(news, 'message.attempt.exhausted', a.id);
    assertSigned(event, newsSecret);
    const { data, timestamp } = bodyOf(event);
    assert.equal(data.messageId, messageId);
    assert.equal(data.messageEventType, 'grant.succeeded');
    assert.equal(data.attemptCount, 8);
    assert.equal(data.lastResponseStatusCode, 500);
    assert.equal(data.lastError, '500: database down');
    assert.equal(data.trigger, 'delivery');
    assert.equal(data.url, failing.url);
    assert.ok(Date.parse(data.lastAttemptAt) <= Date.parse(timestamp) && data.failingSince);
    assert.match(data.lastAttemptId, /^atmpt_/);
    // Found by its tags like any message.
    const listed = await call(app, 'GET', `/v1/messages?eventType=message.attempt.exhausted&tag=webhook:${a.id}`, { token: tok });
    assert.equal(listed.body.results.length, 1);
    assert.deepEqual(listed.body.results[0].tags.sort(), [`message:${messageId}`, `webhook:${a.id}`].sort());
    const about = await call(app, 'GET', `/v1/messages/${listed.body.results[0].id}`, { token: tok });
    assert.ok(!about.body.deliveries.some((d: { webhookId: string }) => d.webhookId === a.id), 'not queued for the webhook it is about');
    assert.ok(
      failing.requests().every((r) => bodyOf(r).type === 'grant.succeeded'),
      'the failing webhook got only its own message',
    );
    assert.equal(disabledOnly.requests().filter((r) => bodyOf(r).type !== 'webhook.disabled').length, 0, 'filtered by event type');
    // The figures the alert rules read (GET /v1/webhooks/{id}/stats).
    const stats = await call(app, 'GET', `/v1/webhooks/${a.id}/stats?window=1h`, { token: tok });
    assert.equal(stats.status, 200, stats.text);
    assert.deepEqual([stats.body.attempts, stats.body.successes, stats.body.successRate, stats.body.failureStreak], [8, 0, 0, 8]);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${a.id}/stats?window=2h`, { token: tok })).status, 400);
  });

  test('webhook.disabled: a 410 Gone disables the webhook, and says why; no exhausted event beside it', async () => {
    const gone = receiver.endpoint(() => ({ status: 410, body: 'Gone' }));
    const b = await webhook(gone, ['grant.succeeded']);
    const messageId = await sendTest(b.id);
    const [event] = await eventAt(news, 'webhook.disabled', b.id);
    assertSigned(event, newsSecret);
    const { data } = bodyOf(event);
    assert.equal(data.reason, 'the endpoint answered 410 Gone');
    assert.equal(data.messageId, messageId);
    assert.equal(data.lastError, '410: Gone');
    assert.equal(data.attemptCount, 1);
    assert.ok(Date.parse(data.disabledAt) > 0);
    await eventAt(disabledOnly, 'webhook.disabled', b.id);
    const webhookNow = await call(app, 'GET', `/v1/webhooks/${b.id}`, { token: tok });
    assert.equal(webhookNow.body.disabledAt, data.disabledAt);
    const exhausted = await call(app, 'GET', `/v1/messages?eventType=message.attempt.exhausted&tag=webhook:${b.id}`, { token: tok });
    assert.equal(exhausted.body.results.length, 0);
  });

  test('disabled and re-enabled through the API: webhook.disabled, then webhook.recovered', async () => {
    const ep = receiver.endpoint(() => ({ status: 200 }));
    const c = await webhook(ep, ['grant.succeeded']);
    assert.equal((await call(app, 'PATCH', `/v1/webhooks/${c.id}`, { token: tok, body: { disabled: true } })).status, 200);
    const [off] = await eventAt(news, 'webhook.disabled', c.id);
    assert.equal(bodyOf(off).data.reason, 'disabled through the API');
    assert.equal(bodyOf(off).data.trigger, 'api');
    assert.equal(bodyOf(off).data.messageId, null);
    // Disabling again changes nothing and says nothing.
    assert.equal((await call(app, 'PATCH', `/v1/webhooks/${c.id}`, { token: tok, body: { disabled: true } })).status, 200);
    assert.equal((await call(app, 'PATCH', `/v1/webhooks/${c.id}`, { token: tok, body: { disabled: false } })).status, 200);
    const [on] = await eventAt(news, 'webhook.recovered', c.id);
    assertSigned(on, newsSecret);
    assert.equal(bodyOf(on).data.trigger, 'api');
    assert.equal(news.requests().filter((r) => bodyOf(r).type === 'webhook.disabled' && bodyOf(r).data.webhookId === c.id).length, 1);
  });

  test('webhook.recovered: the first success after failures', async () => {
    const flaky = receiver.endpoint((_r, n) => (n === 1 ? { status: 503, body: 'warming up' } : { status: 200 }));
    const d = await webhook(flaky, ['grant.succeeded']);
    const messageId = await sendTest(d.id);
    const [event] = await eventAt(news, 'webhook.recovered', d.id);
    assertSigned(event, newsSecret);
    const { data } = bodyOf(event);
    assert.equal(data.messageId, messageId);
    assert.equal(data.attemptCount, 2);
    assert.equal(data.lastResponseStatusCode, 200);
    assert.equal(data.lastError, null);
    assert.ok(data.failingSince && Date.parse(data.recoveredAt) >= Date.parse(data.failingSince));
  });

  test('the new types are event types like any: test events carry their documented example', async () => {
    const messageId = await sendTest(
      (await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: tok })).body.results.find((w: { url: string }) => w.url === news.url).id,
      'webhook.disabled',
    );
    const got = await eventually(async () => news.requests().find((r) => r.headers['webhook-id'] === messageId), 15_000, 'the test event');
    assertSigned(got, newsSecret);
    assert.equal(bodyOf(got).data.reason, 'the endpoint answered 410 Gone');
    const bad = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: news.url, eventTypes: ['webhook.exploded'] } });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /webhook\.disabled, message\.attempt\.exhausted, webhook\.recovered/);
  });
});
