import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, eventually, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the webhook API's answers are the
// same on any store).
// The webhooks API: every operation's success path and error statuses, and tenancy.

let app: TSharedApp;
let receiver: TReceiver;
let tok: string;
let otherTok: string;

before(async () => {
  [app, receiver] = await Promise.all([sharedApp({ accounts: ['other'] }), startReceiver()]);
  tok = await token(app);
  otherTok = await token(app, app.clients.other);
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

const ID = /^[0-9A-Za-z]{27}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const secretOf = (bytes: number) => `whsec_${randomBytes(bytes).toString('base64')}`;

async function newWebhook(body: Record<string, unknown> = {}, t = tok) {
  const ep = receiver.endpoint();
  const res = await call(app, 'POST', '/v1/webhooks', { token: t, body: { url: ep.url, eventTypes: ['grant.succeeded'], ...body } });
  assert.equal(res.status, 201, res.text);
  const secret = (await call(app, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: t })).body.key as string;
  ep.expectSecrets(secret);
  return { webhook: res.body, ep, secret };
}

/** A webhook with one test message delivered (status success, one attempt). */
async function deliveredMessage() {
  const w = await newWebhook();
  const sent = await call(app, 'POST', `/v1/webhooks/${w.webhook.id}/test`, { token: tok });
  assert.equal(sent.status, 200, sent.text);
  const msg = await eventually(
    async () => {
      const r = await call(app, 'GET', `/v1/webhooks/${w.webhook.id}/messages/${sent.body.id}`, { token: tok });
      return r.body.status === 'success' && r.body;
    },
    15000,
    'the test message to be delivered',
  );
  const attempts = await call(app, 'GET', `/v1/webhooks/${w.webhook.id}/messages/${msg.id}/attempts`, { token: tok });
  return { ...w, message: msg, attempt: attempts.body.results[0] };
}

describe('POST /v1/webhooks', () => {
  test('creates a webhook: 201, Location, the contract fields, a generated secret', async () => {
    const ep = receiver.endpoint();
    const res = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('location'), `/v1/webhooks/${res.body.id}`);
    assert.ok(res.headers.get('x-request-id'));
    assert.match(res.body.id, /^ep_/);
    assert.match(res.body.id.slice(3), ID);
    assert.deepEqual(Object.keys(res.body), [
      'id',
      'url',
      'eventTypes',
      'description',
      'disabled',
      'disabledReason',
      'disabledAt',
      'failingSince',
      'disablesAt',
      'paused',
      'pausedAt',
      'rateLimit',
      'metadata',
      'createdAt',
      'updatedAt',
    ]);
    assert.equal(res.body.disabledReason, null);
    assert.equal(res.body.disabledAt, null);
    assert.equal(res.body.url, ep.url);
    assert.deepEqual(res.body.eventTypes, ['grant.succeeded']);
    assert.equal(res.body.description, '');
    assert.equal(res.body.disabled, false);
    assert.deepEqual(res.body.metadata, {});
    assert.match(res.body.createdAt, ISO_MS);
    const secret = await call(app, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: tok });
    assert.equal(secret.status, 200);
    assert.match(secret.body.key, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(secret.body.key.slice(6), 'base64').length;
    assert.ok(bytes >= 24 && bytes <= 64, `secret of ${bytes} bytes`);
  });

  test('EXT: keeps a given secret, metadata, description and disabled', async () => {
    const key = secretOf(32);
    const res = await call(app, 'POST', '/v1/webhooks', {
      token: tok,
      body: {
        url: 'https://example.org/hooks?x=1',
        eventTypes: ['grant.succeeded'],
        description: 'CRM sync',
        disabled: true,
        secret: key,
        metadata: { team: 'crm' },
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.description, 'CRM sync');
    assert.equal(res.body.disabled, true);
    assert.equal(res.body.disabledReason, 'created disabled');
    assert.match(res.body.disabledAt, ISO_MS);
    assert.deepEqual(res.body.metadata, { team: 'crm' });
    assert.equal((await call(app, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: tok })).body.key, key);
  });

  const valid = { url: 'https://example.org/hook', eventTypes: ['grant.succeeded'] };
  const bad: [string, Record<string, unknown>, string][] = [
    ['url missing', { url: undefined }, 'url'],
    ['url not http(s)', { url: 'ftp://example.org/x' }, 'url'],
    ['url relative', { url: '/hooks' }, 'url'],
    ['url over 2048 characters', { url: `https://example.org/${'a'.repeat(2030)}` }, 'url'],
    ['url not a string', { url: 42 }, 'url'],
    ['eventTypes missing', { eventTypes: undefined }, 'eventTypes'],
    ['eventTypes empty', { eventTypes: [] }, 'eventTypes'],
    ['eventTypes unknown type', { eventTypes: ['grant.failed'] }, 'eventTypes.0'],
    ['description over 1000', { description: 'x'.repeat(1001) }, 'description'],
    ['disabled not boolean', { disabled: 'yes' }, 'disabled'],
    ['secret without whsec_', { secret: randomBytes(32).toString('base64') }, 'secret'],
    ['secret of 16 bytes', { secret: secretOf(16) }, 'secret'],
    ['secret of 65 bytes', { secret: secretOf(65) }, 'secret'],
    ['secret not base64', { secret: 'whsec_not*base64*at*all*not*base64*at*all' }, 'secret'],
    ['metadata with a non-string value', { metadata: { n: 1 } }, 'metadata.n'],
    ['unknown field', { eventType: 'grant.succeeded' }, ''],
  ];
  for (const [name, change, path] of bad) {
    test(`${name} → 400 naming ${path || 'the field'}`, async () => {
      const res = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { ...valid, ...change } });
      const problem = assertProblem(res, 400);
      assert.ok(Array.isArray(problem.errors) && problem.errors.length > 0, res.text);
      if (path)
        assert.ok(
          problem.errors.some((e: { path: string }) => e.path === path),
          `expected an error at ${path}: ${res.text}`,
        );
    });
  }

  test('a missing field "is required"; a wrong type says what it must be; the detail reads "Invalid body: …"', async () => {
    const noUrl = assertProblem(await call(app, 'POST', '/v1/webhooks', { token: tok, body: { eventTypes: ['grant.succeeded'] } }), 400);
    assert.deepEqual(noUrl.errors, [{ path: 'url', message: 'is required' }]);
    assert.equal(noUrl.detail, 'Invalid body: url: is required.');
    const empty = assertProblem(await call(app, 'POST', '/v1/webhooks', { token: tok, body: {} }), 400);
    assert.deepEqual(empty.errors, [
      { path: 'url', message: 'is required' },
      { path: 'eventTypes', message: 'is required' },
    ]);
    assert.equal(empty.detail, 'Invalid body: url: is required (and 1 more).');
    const wrong = assertProblem(await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: 42, eventTypes: 'grant.succeeded' } }), 400);
    assert.deepEqual(wrong.errors, [
      { path: 'url', message: 'must be a string' },
      { path: 'eventTypes', message: 'must be an array of event types' },
    ]);
    const query = assertProblem(await call(app, 'GET', `/v1/webhooks/${(await newWebhook()).webhook.id}/messages?status=done`, { token: tok }), 400);
    assert.match(query.detail, /^Invalid query: status: must be one of/);
  });

  const malformed: [string, { raw?: string; headers?: Record<string, string> }, number][] = [
    ['no body', {}, 400],
    ['malformed JSON', { raw: '{"url":', headers: { 'content-type': 'application/json' } }, 400],
    ['not JSON', { raw: 'url=https://example.org', headers: { 'content-type': 'application/x-www-form-urlencoded' } }, 415],
    ['over 256 KiB', { raw: JSON.stringify({ ...valid, description: 'x'.repeat(300 * 1024) }), headers: { 'content-type': 'application/json' } }, 413],
  ];
  for (const [name, opts, status] of malformed) {
    test(`${name} → ${status}`, async () => {
      assertProblem(await call(app, 'POST', '/v1/webhooks', { token: tok, ...opts }), status);
    });
  }

  test('nothing is half-written: a refused create leaves the list unchanged', async () => {
    const before = (await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: tok })).body.results.length;
    await call(app, 'POST', '/v1/webhooks', { token: tok, body: { ...valid, secret: 'whsec_short' } });
    assert.equal((await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: tok })).body.results.length, before);
  });
});

describe('EXT GET /v1/webhooks', () => {
  test('pages newest first with pageLimit and pageToken', async () => {
    for (let i = 0; i < 3; i++) await newWebhook({}, otherTok);
    const page1 = await call(app, 'GET', '/v1/webhooks?pageLimit=2', { token: otherTok });
    assert.equal(page1.status, 200);
    assert.equal(page1.body.results.length, 2);
    assert.ok(page1.body.nextPageToken);
    const page2 = await call(app, 'GET', `/v1/webhooks?pageLimit=2&pageToken=${page1.body.nextPageToken}`, { token: otherTok });
    assert.equal(page2.status, 200);
    const all = [...page1.body.results, ...page2.body.results];
    assert.ok(all.length >= 3);
    assert.equal(new Set(all.map((w: { id: string }) => w.id)).size, all.length, 'no webhook twice');
    const created = all.map((w: { createdAt: string; id: string }) => `${w.createdAt}|${w.id}`);
    assert.deepEqual(created, [...created].sort().reverse(), 'newest first');
    if (all.length === 3) assert.equal(page2.body.nextPageToken, undefined);
  });

  for (const [query, pattern] of [
    ['pageLimit=0', /pageLimit/],
    ['pageLimit=101', /pageLimit/],
    ['pageLimit=abc', /pageLimit/],
    ['pageToken=bogus', /pageToken/],
  ] as const) {
    test(`${query} → 400`, async () => {
      assertProblem(await call(app, 'GET', `/v1/webhooks?${query}`, { token: tok }), 400, pattern);
    });
  }
});

describe('GET | PATCH | DELETE /v1/webhooks/{id}', () => {
  test('GET returns the webhook; unknown ids are 404', async () => {
    const { webhook } = await newWebhook({ description: 'read me' });
    const res = await call(app, 'GET', `/v1/webhooks/${webhook.id}`, { token: tok });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, webhook);
    assertProblem(await call(app, 'GET', '/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', { token: tok }), 404);
    assertProblem(await call(app, 'GET', '/v1/webhooks/not-an-id', { token: tok }), 404);
  });

  test('PATCH changes url, eventTypes, description and disabled', async () => {
    const { webhook } = await newWebhook();
    const res = await call(app, 'PATCH', `/v1/webhooks/${webhook.id}`, {
      token: tok,
      body: { url: 'https://example.org/new', eventTypes: ['grant.succeeded'], description: 'changed', disabled: true },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.url, 'https://example.org/new');
    assert.equal(res.body.description, 'changed');
    assert.equal(res.body.disabled, true);
    assert.ok(res.body.updatedAt >= webhook.updatedAt);
    const again = await call(app, 'PATCH', `/v1/webhooks/${webhook.id}`, { token: tok, body: { disabled: false } });
    assert.equal(again.body.disabled, false);
    assert.equal(again.body.description, 'changed', 'fields not sent are kept');
    assert.deepEqual((await call(app, 'GET', `/v1/webhooks/${webhook.id}`, { token: tok })).body, again.body);
  });

  const badPatch: [string, unknown, number][] = [
    ['empty object', {}, 400],
    ['bad url', { url: 'mailto:x@example.org' }, 400],
    ['empty eventTypes', { eventTypes: [] }, 400],
    ['unknown field', { secret: 'whsec_x' }, 400],
    ['disabled not boolean', { disabled: 1 }, 400],
    ['paused not boolean', { paused: 'yes' }, 400],
    ['rateLimit zero', { rateLimit: 0 }, 400],
    ['rateLimit not whole', { rateLimit: 1.5 }, 400],
    ['rateLimit over 1000', { rateLimit: 1001 }, 400],
  ];
  for (const [name, body, status] of badPatch) {
    test(`PATCH ${name} → ${status}, nothing changed`, async () => {
      const { webhook } = await newWebhook();
      assertProblem(await call(app, 'PATCH', `/v1/webhooks/${webhook.id}`, { token: tok, body }), status);
      assert.deepEqual((await call(app, 'GET', `/v1/webhooks/${webhook.id}`, { token: tok })).body, webhook);
    });
  }

  test('PATCH and DELETE of an unknown id → 404', async () => {
    assertProblem(await call(app, 'PATCH', '/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', { token: tok, body: { disabled: true } }), 404);
    assertProblem(await call(app, 'DELETE', '/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', { token: tok }), 404);
  });

  test('DELETE → 204; afterwards the webhook and its messages are 404 and it leaves the list', async () => {
    const { webhook, message } = await deliveredMessage();
    const res = await call(app, 'DELETE', `/v1/webhooks/${webhook.id}`, { token: tok });
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assertProblem(await call(app, 'GET', `/v1/webhooks/${webhook.id}`, { token: tok }), 404);
    assertProblem(await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages`, { token: tok }), 404);
    assertProblem(await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages/${message.id}`, { token: tok }), 404);
    assertProblem(await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok }), 404);
    assertProblem(await call(app, 'DELETE', `/v1/webhooks/${webhook.id}`, { token: tok }), 404);
    const list = await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: tok });
    assert.ok(!list.body.results.some((w: { id: string }) => w.id === webhook.id));
  });

  test('wrong methods → 405 with Allow', async () => {
    const res = await call(app, 'PUT', '/v1/webhooks', { token: tok, body: {} });
    assertProblem(res, 405);
    assert.match(res.headers.get('allow') ?? '', /GET/);
    assert.match(res.headers.get('allow') ?? '', /POST/);
    const one = await call(app, 'POST', '/v1/webhooks/ep_x', { token: tok, body: {} });
    assertProblem(one, 405);
    assert.match(one.headers.get('allow') ?? '', /PATCH/);
  });
});

describe('secrets', () => {
  test('GET …/secret and POST …/secret/rotate', async () => {
    const { webhook, secret } = await newWebhook();
    const rotated = await call(app, 'POST', `/v1/webhooks/${webhook.id}/secret/rotate`, { token: tok });
    assert.equal(rotated.status, 200, rotated.text);
    assert.match(rotated.body.key, /^whsec_/);
    assert.notEqual(rotated.body.key, secret);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${webhook.id}/secret`, { token: tok })).body.key, rotated.body.key);
  });

  test('unknown webhook → 404', async () => {
    assertProblem(await call(app, 'GET', '/v1/webhooks/ep_nope/secret', { token: tok }), 404);
    assertProblem(await call(app, 'POST', '/v1/webhooks/ep_nope/secret/rotate', { token: tok }), 404);
  });
});

describe('messages and attempts', () => {
  test('list, get (with payload), attempts, attempt (with response)', async () => {
    const { webhook, message, attempt, ep } = await deliveredMessage();
    const list = await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages`, { token: tok });
    assert.equal(list.status, 200);
    assert.equal(list.body.results.length, 1);
    const [m] = list.body.results;
    assert.deepEqual(Object.keys(m), [
      'id',
      'eventId',
      'eventType',
      'timestamp',
      'tags',
      'status',
      'nextAttempt',
      'attemptCount',
      'lastAttempt',
      'retriesStopped',
      'recoverRunId',
    ]);
    assert.match(m.id, /^msg_/);
    assert.match(m.eventId, /^evt_[0-9A-Za-z]{27}$/);
    assert.deepEqual(m.tags, ['test']);
    assert.equal(m.status, 'success');
    assert.equal(m.nextAttempt, null);
    assert.equal(m.attemptCount, 1);
    assert.equal(list.body.nextPageToken, undefined);

    assert.equal(message.payload.type, 'grant.succeeded');
    assert.equal(message.payload.timestamp, message.timestamp);
    assert.deepEqual(JSON.parse(ep.requests()[0].body), message.payload);

    assert.deepEqual(Object.keys(attempt), ['id', 'url', 'timestamp', 'status', 'responseStatusCode', 'responseDurationMs', 'triggerType']);
    assert.match(attempt.id, /^atmpt_/);
    assert.equal(attempt.url, webhook.url);
    assert.equal(attempt.status, 'success');
    assert.equal(attempt.responseStatusCode, 200);
    assert.equal(attempt.triggerType, 'scheduled');
    assert.deepEqual(m.lastAttempt, attempt, 'EXT lastAttempt: the newest attempt, without its body');
    for (const path of [`/v1/webhooks/${webhook.id}/attempts/${attempt.id}`, `/v1/webhooks/${webhook.id}/messages/${message.id}/attempts/${attempt.id}`]) {
      const one = await call(app, 'GET', path, { token: tok });
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body, { ...attempt, response: 'ok', responsePurged: null }, 'with its body; responsePurged (EXT) says it was not purged');
    }
  });

  test('paging and the EXT filters status, eventType, before, after', async () => {
    const { webhook } = await newWebhook();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok })).body.id);
    const base = `/v1/webhooks/${webhook.id}/messages`;
    await eventually(async () => (await call(app, 'GET', `${base}?status=success`, { token: tok })).body.results.length === 3, 15000, 'three deliveries');
    const p1 = await call(app, 'GET', `${base}?pageLimit=2`, { token: tok });
    const p2 = await call(app, 'GET', `${base}?pageLimit=2&pageToken=${p1.body.nextPageToken}`, { token: tok });
    assert.deepEqual(
      [...p1.body.results, ...p2.body.results].map((m: { id: string }) => m.id),
      [...ids].reverse(),
    );
    assert.equal(p2.body.nextPageToken, undefined);
    const count = async (q: string) => (await call(app, 'GET', `${base}?${q}`, { token: tok })).body.results.length;
    assert.equal(await count('status=failed'), 0);
    assert.equal(await count('status=pending'), 0);
    assert.equal(await count('eventType=grant.succeeded'), 3);
    const future = new Date(Date.now() + 3600_000).toISOString();
    const past = new Date(Date.now() - 3600_000).toISOString();
    assert.equal(await count(`before=${future}`), 3);
    assert.equal(await count(`before=${past}`), 0);
    assert.equal(await count(`after=${past}`), 3);
    assert.equal(await count(`after=${future}`), 0);
  });

  test('a page token works only on the list that issued it', async () => {
    const a = await newWebhook();
    const b = await newWebhook();
    for (let i = 0; i < 2; i++) assert.equal((await call(app, 'POST', `/v1/webhooks/${a.webhook.id}/test`, { token: tok })).status, 200);
    assert.equal((await call(app, 'POST', `/v1/webhooks/${b.webhook.id}/test`, { token: tok })).status, 200);
    const messagesToken = (await call(app, 'GET', `/v1/webhooks/${a.webhook.id}/messages?pageLimit=1`, { token: tok })).body.nextPageToken;
    assert.ok(messagesToken);
    const webhooksToken = (await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: tok })).body.nextPageToken;
    assert.ok(webhooksToken);
    const refused: [string, string][] = [
      ['a messages token on the webhooks list', `/v1/webhooks?pageToken=${messagesToken}`],
      ['a messages token on another webhook’s messages', `/v1/webhooks/${b.webhook.id}/messages?pageToken=${messagesToken}`],
      ['a webhooks token on a webhook’s messages', `/v1/webhooks/${a.webhook.id}/messages?pageToken=${webhooksToken}`],
    ];
    for (const [name, path] of refused) {
      const problem = assertProblem(await call(app, 'GET', path, { token: tok }), 400, /pageToken/);
      assert.deepEqual(
        problem.errors?.map((e: { path: string }) => e.path),
        ['pageToken'],
        name,
      );
    }
    // Each token still works on its own list.
    assert.equal((await call(app, 'GET', `/v1/webhooks/${a.webhook.id}/messages?pageToken=${messagesToken}`, { token: tok })).body.results.length, 1);
    assert.equal((await call(app, 'GET', `/v1/webhooks?pageToken=${webhooksToken}`, { token: tok })).status, 200);
    // Another account's token for the same path shape is refused too.
    for (let i = 0; i < 2; i++) await newWebhook({}, otherTok);
    const theirToken = (await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: otherTok })).body.nextPageToken;
    assert.ok(theirToken);
    assertProblem(await call(app, 'GET', `/v1/webhooks?pageToken=${theirToken}`, { token: tok }), 400, /pageToken/);
  });

  test('an attempts page token is refused by another message’s attempts', async () => {
    const { webhook, message } = await deliveredMessage();
    assert.equal((await call(app, 'POST', `/v1/webhooks/${webhook.id}/messages/${message.id}/resend`, { token: tok })).status, 202);
    const second = await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok });
    const base = `/v1/webhooks/${webhook.id}/messages`;
    const attemptsToken = (await call(app, 'GET', `${base}/${message.id}/attempts?pageLimit=1`, { token: tok })).body.nextPageToken;
    assert.ok(attemptsToken);
    assertProblem(await call(app, 'GET', `${base}/${second.body.id}/attempts?pageToken=${attemptsToken}`, { token: tok }), 400, /pageToken/);
    assertProblem(await call(app, 'GET', `${base}?pageToken=${attemptsToken}`, { token: tok }), 400, /pageToken/);
    const next = await call(app, 'GET', `${base}/${message.id}/attempts?pageLimit=1&pageToken=${attemptsToken}`, { token: tok });
    assert.equal(next.status, 200, next.text);
    assert.equal(next.body.results[0].triggerType, 'scheduled');
  });

  for (const [query, param] of [
    ['status=done', 'status'],
    ['eventType=grant.failed', 'eventType'],
    ['before=yesterday', 'before'],
    ['after=2026-13-01T00:00:00Z', 'after'],
    ['pageLimit=500', 'pageLimit'],
  ] as const) {
    test(`messages?${query} → 400 naming ${param}`, async () => {
      const { webhook } = await newWebhook();
      const problem = assertProblem(await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages?${query}`, { token: tok }), 400);
      assert.ok(
        problem.errors?.some((e: { path: string }) => e.path === param),
        JSON.stringify(problem),
      );
    });
  }

  test('unknown message and attempt ids → 404', async () => {
    const { webhook, message, attempt } = await deliveredMessage();
    const other = await newWebhook();
    const cases = [
      `/v1/webhooks/${webhook.id}/messages/msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE`,
      `/v1/webhooks/${webhook.id}/messages/msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/attempts`,
      `/v1/webhooks/${webhook.id}/attempts/atmpt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE`,
      `/v1/webhooks/${webhook.id}/messages/msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/attempts/${attempt.id}`,
      // a real message and attempt, through another webhook of the same account
      `/v1/webhooks/${other.webhook.id}/messages/${message.id}`,
      `/v1/webhooks/${other.webhook.id}/messages/${message.id}/attempts`,
      `/v1/webhooks/${other.webhook.id}/attempts/${attempt.id}`,
    ];
    for (const path of cases) assertProblem(await call(app, 'GET', path, { token: tok }), 404);
  });
});

describe('POST /v1/webhooks/{id}/test', () => {
  test('200 with the queued message and the example payload', async () => {
    const { webhook, ep } = await newWebhook();
    const res = await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok, body: { eventType: 'grant.succeeded' } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body), [
      'id',
      'eventId',
      'eventType',
      'timestamp',
      'tags',
      'status',
      'nextAttempt',
      'attemptCount',
      'lastAttempt',
      'retriesStopped',
      'recoverRunId',
      'payload',
    ]);
    assert.equal(res.body.status, 'pending');
    assert.deepEqual(res.body.tags, ['test']);
    assert.equal(res.body.lastAttempt, null);
    assert.equal(res.body.attemptCount, 0);
    assert.match(res.body.nextAttempt, ISO_MS);
    assert.equal(res.body.nextAttempt, res.body.timestamp, 'due when made: not before it was made');
    assert.equal(res.body.payload.timestamp, res.body.timestamp);
    const { data } = res.body.payload;
    assert.deepEqual(Object.keys(data), [
      'id',
      'connectId',
      'nonprofitId',
      'trackingId',
      'workflowSessionId',
      'amount',
      'feeAmount',
      'coveredFees',
      'status',
      'fundId',
      'fundName',
      'firstName',
      'lastName',
      'email',
      'phone',
      'note',
      'metadata',
      'createdAt',
      'updatedAt',
    ]);
    assert.equal(data.status, 'Initiated');
    await eventually(async () => ep.requests().length === 1, 15000, 'the test delivery');
    assert.equal(ep.requests()[0].headers['webhook-id'], res.body.id);
  });

  test('a fresh test message is due when it is made: nextAttempt equals its timestamp', async () => {
    const { webhook } = await newWebhook();
    for (let i = 0; i < 5; i++) {
      const res = await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.nextAttempt, res.body.timestamp, `message ${i}: nextAttempt ${res.body.nextAttempt}, timestamp ${res.body.timestamp}`);
    }
  });

  const bad: [string, unknown, number][] = [
    ['unknown event type', { eventType: 'grant.failed' }, 400],
    ['unknown field', { type: 'grant.succeeded' }, 400],
  ];
  for (const [name, body, status] of bad) {
    test(`${name} → ${status}`, async () => {
      const { webhook } = await newWebhook();
      assertProblem(await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok, body }), status);
      assert.equal((await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages`, { token: tok })).body.results.length, 0);
    });
  }

  test('a disabled webhook → 409; unknown → 404', async () => {
    const { webhook } = await newWebhook({ disabled: true });
    assertProblem(await call(app, 'POST', `/v1/webhooks/${webhook.id}/test`, { token: tok }), 409, /disabled/);
    assertProblem(await call(app, 'POST', '/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/test', { token: tok }), 404);
  });
});

describe('EXT POST …/messages/{msgId}/resend', () => {
  test('202 with a manual attempt, delivered again with the same webhook-id', async () => {
    const { webhook, message, ep } = await deliveredMessage();
    const res = await call(app, 'POST', `/v1/webhooks/${webhook.id}/messages/${message.id}/resend`, { token: tok });
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.triggerType, 'manual');
    assert.equal(res.body.status, 'success');
    assert.equal(res.body.responseStatusCode, 200);
    assert.equal(ep.requests().length, 2);
    assert.ok(ep.requests().every((r) => r.headers['webhook-id'] === message.id && r.verified));
    const attempts = await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages/${message.id}/attempts`, { token: tok });
    assert.deepEqual(
      attempts.body.results.map((a: { triggerType: string }) => a.triggerType),
      ['manual', 'scheduled'],
    );
    const after = await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages/${message.id}`, { token: tok });
    assert.equal(after.body.attemptCount, 2);
    assert.equal(after.body.status, 'success');
  });

  test('unknown message → 404; disabled webhook → 409', async () => {
    const { webhook, message } = await deliveredMessage();
    assertProblem(await call(app, 'POST', `/v1/webhooks/${webhook.id}/messages/msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE/resend`, { token: tok }), 404);
    await call(app, 'PATCH', `/v1/webhooks/${webhook.id}`, { token: tok, body: { disabled: true } });
    assertProblem(await call(app, 'POST', `/v1/webhooks/${webhook.id}/messages/${message.id}/resend`, { token: tok }), 409);
  });
});

describe('authentication and tenancy', () => {
  const routes = (w: string, m: string, a: string): [string, string, unknown?][] => [
    ['GET', `/v1/webhooks/${w}`],
    ['PATCH', `/v1/webhooks/${w}`, { description: 'mine now' }],
    ['DELETE', `/v1/webhooks/${w}`],
    ['GET', `/v1/webhooks/${w}/secret`],
    ['POST', `/v1/webhooks/${w}/secret/rotate`],
    ['GET', `/v1/webhooks/${w}/messages`],
    ['GET', `/v1/webhooks/${w}/messages/${m}`],
    ['GET', `/v1/webhooks/${w}/messages/${m}/attempts`],
    ['GET', `/v1/webhooks/${w}/messages/${m}/attempts/${a}`],
    ['GET', `/v1/webhooks/${w}/attempts/${a}`],
    ['POST', `/v1/webhooks/${w}/messages/${m}/resend`],
    ['POST', `/v1/webhooks/${w}/test`],
  ];

  test('another account gets 404 for the webhook, its messages and attempts, and changes nothing', async () => {
    const { webhook, message, attempt, secret } = await deliveredMessage();
    for (const [method, path, body] of routes(webhook.id, message.id, attempt.id)) {
      const res = await call(app, method, path, { token: otherTok, body });
      assertProblem(res, 404);
      assert.ok(!res.text.includes(webhook.url), `${method} ${path} leaks nothing`);
    }
    const list = await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: otherTok });
    assert.ok(!list.body.results.some((w: { id: string }) => w.id === webhook.id));
    assert.deepEqual((await call(app, 'GET', `/v1/webhooks/${webhook.id}`, { token: tok })).body, webhook);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${webhook.id}/secret`, { token: tok })).body.key, secret);
    assert.equal((await call(app, 'GET', `/v1/webhooks/${webhook.id}/messages/${message.id}/attempts`, { token: tok })).body.results.length, 1);
  });

  test('no token → 401 on every operation', async () => {
    const all: [string, string, unknown?][] = [['GET', '/v1/webhooks'], ['POST', '/v1/webhooks', {}], ...routes('ep_x', 'msg_x', 'atmpt_x')];
    for (const [method, path, body] of all) {
      const res = await call(app, method, path, { body });
      assertProblem(res, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer realm="giving-connect"/);
    }
  });
});
