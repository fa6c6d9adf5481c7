import assert from 'node:assert/strict';
import { call, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeApp, TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0001 (event ids, tags, disabledAt; tests/integration/messages-ext.test.ts) on a database
// made before it: a disabled and an enabled webhook (at a receiver of this module's), a grant message
// delivered once, a test message, of an account of the step's own.

const NAME = 'upgrade-messages-ext';
const EVT = /^evt_[0-9A-Za-z]{27}$/;
const receiver = await startReceiver();
const urls = { on: receiver.endpoint().url, off: receiver.endpoint().url };

/** A grant's tags as the 0001 backfill makes them (no donor name: grants did not carry it then). */
const grantTags = (g: { id: string; trackingId: string; email: string; connectId: string }) => [
  `grant:${g.id}`,
  `tracking:${g.trackingId}`,
  `donor:${g.email.toLowerCase()}`,
  `connect:${g.connectId}`,
];

/** The account's one message tagged `tag`. */
async function messageTagged(app: TUpgradeApp, t: string, tag: string) {
  const res = await call(app, 'GET', `/v1/messages?tag=${encodeURIComponent(tag)}`, { token: t });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.results.length, 1, res.text);
  return res.body.results[0] as { id: string };
}

const OLD = {
  webhookOff: 'ep_2Q3sXQ8b1dY7cN4kP0mZr9TfV01',
  webhookOn: 'ep_2Q3sXQ8b1dY7cN4kP0mZr9TfV02',
  grantMessage: 'msg_2Q3sXQ8b1dY7cN4kP0mZr9TfV03',
  testMessage: 'msg_2Q3sXQ8b1dY7cN4kP0mZr9TfV04',
  attempt: 'atmpt_2Q3sXQ8b1dY7cN4kP0mZr9TfV05',
  grant: { id: '0b7a4c1e-5d2f-4e8a-9c3b-1a2b3c4d5e6f', trackingId: 'GC-OLD234', email: 'Old.Donor@Example.ORG', connectId: 'test_2Q3sXQ8b1dY7cN4kP0mZr9TfV06' },
  testGrantId: '3f5e8c1a-9b2d-4e7f-8a6c-1d2e3f4a5b6c',
};

/** Rows as the app before migration 0001 wrote them: a disabled and an enabled webhook, a grant message delivered once, a test message. */
function oldRows(urls: { on: string; off: string }): string {
  const payload = (data: Record<string, unknown>) =>
    JSON.stringify({ type: 'grant.succeeded', timestamp: '2026-11-01T10:00:00.000Z', data }).replaceAll("'", "''");
  return `
    insert into service.accounts (id, name) values ('11111111-1111-4111-8111-111111111111', '${NAME}');
    insert into service.webhooks (id, account_id, url, event_types, disabled, disabled_reason, created_at, updated_at) values
      ('${OLD.webhookOff}', '11111111-1111-4111-8111-111111111111', '${urls.off}', '{grant.succeeded}', true, 'the endpoint answered 410 Gone', '2026-10-01T00:00:00Z', '2026-10-02T03:04:05.678Z'),
      ('${OLD.webhookOn}', '11111111-1111-4111-8111-111111111111', '${urls.on}', '{grant.succeeded}', false, null, '2026-10-01T00:00:01Z', '2026-10-01T00:00:01Z');
    insert into service.webhook_secrets (webhook_id, secret) values
      ('${OLD.webhookOff}', 'whsec_${Buffer.alloc(24, 1).toString('base64')}'),
      ('${OLD.webhookOn}', 'whsec_${Buffer.alloc(24, 2).toString('base64')}');
    insert into service.messages (id, account_id, event_type, payload, created_at) values
      ('${OLD.grantMessage}', '11111111-1111-4111-8111-111111111111', 'grant.succeeded', '${payload({ ...OLD.grant, amount: 15000 })}', '2026-11-01T10:00:00.000Z'),
      ('${OLD.testMessage}', '11111111-1111-4111-8111-111111111111', 'grant.succeeded', '${payload({ id: OLD.testGrantId, trackingId: 'GC-7KQ2M9', email: 'jane.donor@example.org', connectId: 'test_x' })}', '2026-11-01T11:00:00.000Z');
    insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, created_at) values
      ('22222222-2222-4222-8222-222222222222', '${OLD.grantMessage}', '${OLD.webhookOn}', '11111111-1111-4111-8111-111111111111', 'grant.succeeded', 'success', 1, 1, '2026-11-01T10:00:00.000Z');
    insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type) values
      ('${OLD.attempt}', '22222222-2222-4222-8222-222222222222', '${OLD.grantMessage}', '${OLD.webhookOn}', '11111111-1111-4111-8111-111111111111', '${urls.on}', '2026-11-01T10:00:01.234Z', 'success', 204, 42, '', 'scheduled');
  `;
}

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0001 on a database made before it: opens, keeps every row, and backfills event ids, tags and disabledAt; new messages get their own event ids beside them',
    release: '0000_init',
    rows: oldRows(urls),
    accounts: [NAME],
    check: async (app) => {
      const otok = await token(app, app.clients[NAME]);
      const list = await call(app, 'GET', '/v1/messages', { token: otok });
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body.results, [
        {
          id: OLD.testMessage,
          eventId: OLD.testMessage.replace('msg_', 'evt_'),
          eventType: 'grant.succeeded',
          timestamp: '2026-11-01T11:00:00.000Z',
          tags: ['test'],
        },
        {
          id: OLD.grantMessage,
          eventId: OLD.grantMessage.replace('msg_', 'evt_'),
          eventType: 'grant.succeeded',
          timestamp: '2026-11-01T10:00:00.000Z',
          tags: grantTags(OLD.grant),
        },
      ]);
      assert.equal((await messageTagged(app, otok, 'donor:old.donor@example.org')).id, OLD.grantMessage);

      const byEvent = await call(app, 'GET', `/v1/messages/${OLD.grantMessage.replace('msg_', 'evt_')}`, { token: otok });
      assert.equal(byEvent.status, 200, byEvent.text);
      assert.equal(byEvent.body.payload.data.trackingId, OLD.grant.trackingId);
      const lastAttempt = {
        id: OLD.attempt,
        url: urls.on,
        timestamp: '2026-11-01T10:00:01.234Z',
        status: 'success',
        responseStatusCode: 204,
        responseDurationMs: 42,
        triggerType: 'scheduled',
      };
      assert.deepEqual(byEvent.body.deliveries, [
        { webhookId: OLD.webhookOn, status: 'success', nextAttempt: null, attemptCount: 1, lastAttempt, retriesStopped: null, recoverRunId: null },
      ]);
      const perWebhook = await call(app, 'GET', `/v1/webhooks/${OLD.webhookOn}/messages`, { token: otok });
      assert.deepEqual(
        perWebhook.body.results.map((m: { id: string; lastAttempt: unknown }) => [m.id, m.lastAttempt]),
        [[OLD.grantMessage, lastAttempt]],
      );

      const off = await call(app, 'GET', `/v1/webhooks/${OLD.webhookOff}`, { token: otok });
      assert.equal(off.status, 200, off.text);
      assert.equal(off.body.disabled, true);
      assert.equal(off.body.disabledReason, 'the endpoint answered 410 Gone');
      assert.equal(off.body.disabledAt, '2026-10-02T03:04:05.678Z', 'disabled_at backfilled from updated_at');
      const on = await call(app, 'GET', `/v1/webhooks/${OLD.webhookOn}`, { token: otok });
      assert.equal(on.body.disabledAt, null);

      // New messages get their own event ids beside the backfilled ones.
      const sent = await call(app, 'POST', `/v1/webhooks/${OLD.webhookOn}/test`, { token: otok });
      assert.equal(sent.status, 200, sent.text);
      assert.match(sent.body.eventId, EVT);
      assert.notEqual(sent.body.eventId.slice(4), sent.body.id.slice(4), 'a new event id is a KSUID of its own');
      assert.equal((await call(app, 'GET', '/v1/messages?tag=test', { token: otok })).body.results.length, 2);
    },
    close: () => receiver.close(),
  },
];
