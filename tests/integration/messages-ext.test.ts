import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ConnectApi } from '../../lib/console/connect-api/client';
import { isUnsupported, type ConnectApiError } from '../../lib/console/connect-api/errors';
import { SANDBOX } from '../helpers/app';
import { assertProblem, call, eventually, token } from '../helpers/http';
import { openTestDatabase } from '../helpers/in-process-db';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the message list filters are plain
// queries, the same on any store).
// The investigation extensions (EXT): messages stored, tagged and given an event id whether or not
// a webhook is subscribed; the account's message list and lookup; lastAttempt on a webhook's
// messages; why and when a webhook was disabled; a grant by token alone; and the migration that
// adds all this to a database made before it (tests/upgrade/messages-ext.ts).
// On the suite's shared app (tests/helpers/shared-app.ts): every list it counts is of its own
// accounts (`token(app)`'s and those it asks for), which no other file writes to.

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const EVT = /^evt_[0-9A-Za-z]{27}$/;

let app: TSharedApp;
let receiver: TReceiver;
let tok: string;
let otherTok: string;

before(async () => {
  [app, receiver] = await Promise.all([sharedApp({ accounts: ['other', 'quiet', 'lists'] }), startReceiver()]);
  tok = await token(app);
  otherTok = await token(app, app.clients.other);
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

type TConnect = { id: string; apiKey: string };
let seq = Math.floor(Math.random() * 9_000_000);

async function newConnect(t: string): Promise<TConnect> {
  const ein = `46${String(seq++ % 10_000_000).padStart(7, '0')}`;
  const np = await call(app, 'POST', '/v1/nonprofits', { token: t, body: { ein, user: { email: 'ed@example.org' } } });
  assert.equal(np.status, 201, np.text);
  const created = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: t });
  assert.equal(created.status, 201, created.text);
  return (await call(app, 'GET', `/v1/connects/${created.body.id}`, { token: t })).body;
}

async function newGrant(t: string, connect: TConnect, extra: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/v1/grants', {
    token: t,
    headers: { 'x-service-api-key': connect.apiKey },
    body: { amount: 15000, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', ...extra },
  });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; trackingId: string; email: string; connectId: string };
}

async function newWebhook(t: string, ep: ReturnType<TReceiver['endpoint']>, body: Record<string, unknown> = {}) {
  const res = await call(app, 'POST', '/v1/webhooks', { token: t, body: { url: ep.url, eventTypes: ['grant.succeeded'], ...body } });
  assert.equal(res.status, 201, res.text);
  return res.body as { id: string; url: string };
}

/** A grant's tags; the donor's full name is one since grants carry it (not on a grant the 0001 backfill tagged: tests/upgrade/messages-ext.ts). */
const grantTags = (g: { id: string; trackingId: string; email: string; connectId: string; firstName?: string; lastName?: string }) => [
  `grant:${g.id}`,
  `tracking:${g.trackingId}`,
  `donor:${g.email.toLowerCase()}`,
  `connect:${g.connectId}`,
  ...(g.firstName !== undefined ? [`name:${`${g.firstName} ${g.lastName ?? ''}`.toLowerCase().replace(/\s+/g, ' ').trim()}`] : []),
];

/** The account's one message tagged `tag`. */
async function messageTagged(t: string, tag: string) {
  const res = await call(app, 'GET', `/v1/messages?tag=${encodeURIComponent(tag)}`, { token: t });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.results.length, 1, res.text);
  return res.body.results[0] as { id: string; eventId: string; eventType: string; timestamp: string; tags: string[] };
}

describe('messages: stored, tagged, with an event id', () => {
  test("a grant's message carries its tags and an event id, on the webhook's view too", async () => {
    const ep = receiver.endpoint();
    const w = await newWebhook(tok, ep);
    const connect = await newConnect(tok);
    const grant = await newGrant(tok, connect, { email: 'Mixed.Case@Example.ORG', firstName: 'Grace', lastName: 'Hopper' });
    const listed = await messageTagged(tok, `grant:${grant.id}`);
    assert.deepEqual(listed.tags, grantTags(grant));
    assert.ok(listed.tags.includes('donor:mixed.case@example.org'));
    assert.ok(listed.tags.includes('name:grace hopper'), 'the donor’s full name, as the console’s search asks for it');
    assert.equal((await messageTagged(tok, 'name:grace hopper')).id, listed.id);
    assert.match(listed.eventId, EVT);
    assert.equal(listed.eventType, 'grant.succeeded');
    const mine = await call(app, 'GET', `/v1/webhooks/${w.id}/messages/${listed.id}`, { token: tok });
    assert.equal(mine.status, 200, mine.text);
    assert.equal(mine.body.eventId, listed.eventId);
    assert.deepEqual(mine.body.tags, listed.tags);
    assert.deepEqual(mine.body.payload.data, grant);
    // Each tag finds it, and only exact tags do.
    for (const tag of grantTags(grant)) assert.equal((await messageTagged(tok, tag)).id, listed.id);
    const partial = await call(app, 'GET', `/v1/messages?tag=${encodeURIComponent(`grant:${grant.id.slice(0, 8)}`)}`, { token: tok });
    assert.deepEqual(partial.body.results, []);
  });

  test('with no webhook subscribed the message is stored all the same, with deliveries []', async () => {
    const quiet = await token(app, app.clients.quiet);
    // A disabled webhook is not subscribed either.
    await newWebhook(quiet, receiver.endpoint(), { disabled: true });
    const grant = await newGrant(quiet, await newConnect(quiet));
    const listed = await messageTagged(quiet, `tracking:${grant.trackingId}`);
    for (const id of [listed.id, listed.eventId]) {
      const one = await call(app, 'GET', `/v1/messages/${id}`, { token: quiet });
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(one.body.deliveries, []);
      assert.deepEqual(one.body.payload.data, grant);
      assert.equal(one.body.payload.type, 'grant.succeeded');
      assert.equal(one.body.payload.timestamp, one.body.timestamp);
    }
  });

  test("a test event is tagged 'test' and answers lastAttempt: null before any attempt", async () => {
    const ep = receiver.endpoint();
    const w = await newWebhook(tok, ep);
    const sent = await call(app, 'POST', `/v1/webhooks/${w.id}/test`, { token: tok });
    assert.equal(sent.status, 200, sent.text);
    assert.deepEqual(sent.body.tags, ['test']);
    assert.match(sent.body.eventId, EVT);
    assert.equal(sent.body.lastAttempt, null);
    const byEvent = await call(app, 'GET', `/v1/messages/${sent.body.eventId}`, { token: tok });
    assert.equal(byEvent.body.id, sent.body.id);
    assert.deepEqual(
      byEvent.body.deliveries.map((d: { webhookId: string }) => d.webhookId),
      [w.id],
      'a test event goes to its webhook alone',
    );
  });
});

describe('EXT GET /v1/messages', () => {
  let lists: string;
  let connect: TConnect;
  let webhooks: { id: string }[];
  let grants: Awaited<ReturnType<typeof newGrant>>[];
  /** The account's messages, oldest first: three grants, then a test event. */
  let ids: string[];
  let byId: Map<string, { id: string; eventId: string; timestamp: string; tags: string[] }>;

  before(async () => {
    lists = await token(app, app.clients.lists);
    webhooks = [await newWebhook(lists, receiver.endpoint()), await newWebhook(lists, receiver.endpoint())];
    connect = await newConnect(lists);
    grants = [];
    for (let i = 0; i < 3; i++) grants.push(await newGrant(lists, connect, { email: `donor-${i}-${seq}@example.org` }));
    const sent = await call(app, 'POST', `/v1/webhooks/${webhooks[0].id}/test`, { token: lists });
    assert.equal(sent.status, 200, sent.text);
    const all = await call(app, 'GET', '/v1/messages?pageLimit=100', { token: lists });
    assert.equal(all.status, 200, all.text);
    ids = all.body.results.map((m: { id: string }) => m.id).reverse();
    byId = new Map(all.body.results.map((m: { id: string }) => [m.id, m]));
    assert.equal(ids.length, 4);
    assert.equal(ids[3], sent.body.id);
  });

  test('newest first, each {id, eventId, eventType, timestamp, tags}', async () => {
    const res = await call(app, 'GET', '/v1/messages', { token: lists });
    assert.equal(res.status, 200);
    assert.ok(res.headers.get('x-request-id'));
    assert.equal(res.body.nextPageToken, undefined);
    assert.deepEqual(
      res.body.results.map((m: { id: string }) => m.id),
      [...ids].reverse(),
    );
    const [newest] = res.body.results;
    assert.deepEqual(Object.keys(newest), ['id', 'eventId', 'eventType', 'timestamp', 'tags']);
    assert.match(newest.timestamp, ISO_MS);
    assert.deepEqual(newest.tags, ['test']);
    grants.forEach((g, i) => assert.deepEqual(byId.get(ids[i])!.tags, grantTags(g)));
  });

  test('pages with pageLimit and pageToken', async () => {
    const p1 = await call(app, 'GET', '/v1/messages?pageLimit=3', { token: lists });
    assert.equal(p1.body.results.length, 3);
    assert.ok(p1.body.nextPageToken);
    const p2 = await call(app, 'GET', `/v1/messages?pageLimit=3&pageToken=${p1.body.nextPageToken}`, { token: lists });
    assert.equal(p2.status, 200, p2.text);
    assert.equal(p2.body.nextPageToken, undefined);
    assert.deepEqual(
      [...p1.body.results, ...p2.body.results].map((m: { id: string }) => m.id),
      [...ids].reverse(),
    );
    // A filter pages too.
    const f1 = await call(app, 'GET', `/v1/messages?pageLimit=2&tag=connect:${connect.id}`, { token: lists });
    const f2 = await call(app, 'GET', `/v1/messages?pageLimit=2&tag=connect:${connect.id}&pageToken=${f1.body.nextPageToken}`, { token: lists });
    assert.deepEqual(
      [...f1.body.results, ...f2.body.results].map((m: { id: string }) => m.id),
      ids.slice(0, 3).reverse(),
    );
  });

  test('filters: tag (exact membership), eventType, before, after', async () => {
    const q = async (query: string) =>
      (await call(app, 'GET', `/v1/messages?pageLimit=100&${query}`, { token: lists })).body.results.map((m: { id: string }) => m.id);
    assert.deepEqual(await q('tag=test'), [ids[3]]);
    assert.deepEqual(await q(`tag=${encodeURIComponent(`grant:${grants[1].id}`)}`), [ids[1]]);
    assert.deepEqual(await q(`tag=${encodeURIComponent(`donor:${grants[0].email}`)}`), [ids[0]]);
    assert.deepEqual(await q(`tag=${encodeURIComponent(`connect:${connect.id}`)}`), ids.slice(0, 3).reverse());
    assert.deepEqual(await q('tag=grant'), []);
    assert.deepEqual(await q('eventType=grant.succeeded'), [...ids].reverse());
    const middle = byId.get(ids[1])!.timestamp;
    assert.deepEqual(await q(`before=${middle}`), [ids[0]]);
    assert.deepEqual(await q(`after=${middle}`), [ids[3], ids[2]]);
    assert.deepEqual(await q(`after=${byId.get(ids[0])!.timestamp}&before=${byId.get(ids[2])!.timestamp}`), [ids[1]]);
    assert.deepEqual(await q(`tag=test&before=${middle}`), []);
    // An empty value is no filter.
    assert.deepEqual(await q('tag=&eventType='), [...ids].reverse());
  });

  for (const [query, param] of [
    ['eventType=grant.failed', 'eventType'],
    ['before=yesterday', 'before'],
    ['after=2026-13-01T00:00:00Z', 'after'],
    [`tag=${'x'.repeat(301)}`, 'tag'],
    ['pageLimit=0', 'pageLimit'],
    ['pageLimit=101', 'pageLimit'],
    ['pageToken=bogus', 'pageToken'],
  ] as const) {
    test(`?${query.slice(0, 40)} → 400 naming ${param}`, async () => {
      const problem = assertProblem(await call(app, 'GET', `/v1/messages?${query}`, { token: lists }), 400);
      assert.ok(
        problem.errors?.some((e: { path: string }) => e.path === param),
        JSON.stringify(problem),
      );
    });
  }

  test("a page token of another list, or of another account's messages, is refused", async () => {
    const webhooksToken = (await call(app, 'GET', '/v1/webhooks?pageLimit=1', { token: lists })).body.nextPageToken;
    assert.ok(webhooksToken);
    assertProblem(await call(app, 'GET', `/v1/messages?pageToken=${webhooksToken}`, { token: lists }), 400, /pageToken/);
    const messagesToken = (await call(app, 'GET', '/v1/messages?pageLimit=1', { token: lists })).body.nextPageToken;
    assertProblem(await call(app, 'GET', `/v1/messages?pageToken=${messagesToken}`, { token: otherTok }), 400, /pageToken/);
    assertProblem(await call(app, 'GET', `/v1/webhooks/${webhooks[0].id}/messages?pageToken=${messagesToken}`, { token: lists }), 400, /pageToken/);
  });

  test('another account sees none of these messages; no token → 401; wrong method → 405', async () => {
    const theirs = await call(app, 'GET', `/v1/messages?pageLimit=100&tag=${encodeURIComponent(`connect:${connect.id}`)}`, { token: otherTok });
    assert.deepEqual(theirs.body.results, []);
    const all = await call(app, 'GET', '/v1/messages?pageLimit=100', { token: otherTok });
    assert.ok(!all.body.results.some((m: { id: string }) => ids.includes(m.id)));
    const anon = await call(app, 'GET', '/v1/messages');
    assertProblem(anon, 401);
    assert.match(anon.headers.get('www-authenticate') ?? '', /^Bearer realm="giving-connect"/);
    assertProblem(await call(app, 'GET', `/v1/messages/${ids[0]}`), 401);
    for (const p of ['/v1/messages', `/v1/messages/${ids[0]}`]) {
      const res = await call(app, 'POST', p, { token: lists, body: {} });
      assertProblem(res, 405);
      assert.equal(res.headers.get('allow'), 'GET, HEAD, OPTIONS');
    }
  });

  // Behind more than the 2,000 newest messages a filter first tests one by one, a rare tag is
  // found through its index (each grant's tag reads to the planner as common: it would otherwise
  // walk all the account's messages newest first), and a common one still pages. 2,001 messages
  // are written straight into a database, which a file on the shared app may not do to the app's
  // (the embedded store is its process's alone): so here the list GET /v1/messages answers with
  // (lib/service/messages/list-account-messages.ts) runs in this process, on a database of the
  // test's own (tests/helpers/in-process-db.ts), over the same rows as the account's above — three
  // grant messages and a test event, older than the fillers.
  test('a tag found behind 2,001 newer messages, and a common tag paged through them', async () => {
    const opened = await openTestDatabase('messages-recent');
    try {
      const { driverRows } = opened.client;
      const { listAccountMessages } = await import('../../lib/service/messages/list-account-messages');
      const { ZAccountMessageFilters } = await import('../../lib/service/messages/schemas');
      const account = '00000000-0000-4000-8000-0000000f1115';
      await driverRows(`insert into service.accounts (id, name) values ($1, 'lists')`, [account]);
      // The account's four messages as listed over HTTP above (oldest first), each created as it was.
      for (const id of ids) {
        const m = byId.get(id)!;
        await driverRows(
          `insert into service.messages (id, account_id, event_id, event_type, payload, tags, created_at) values ($1, $2, $3, 'grant.succeeded', '{}', $4::text[], $5)`,
          [m.id, account, m.eventId, m.tags, m.timestamp],
        );
      }
      await driverRows(
        `insert into service.messages (id, account_id, event_id, event_type, payload, tags, created_at)
         select 'msg_2bFiller' || lpad(n::text, 19, '0'), $1, 'evt_2bFiller' || lpad(n::text, 19, '0'), 'grant.succeeded', '{}', array['filler'], now() + n * interval '1 ms'
         from generate_series(1, 2001) n`,
        [account],
      );
      const q = async (tag: string) =>
        (await listAccountMessages(account, { limit: 100, cursor: null, scope: 'messages' }, ZAccountMessageFilters.parse({ tag }))).results.map((m) => m.id);
      assert.deepEqual(await q(`grant:${grants[1].id}`), [ids[1]]);
      assert.deepEqual(await q(`connect:${connect.id}`), ids.slice(0, 3).reverse());
      assert.deepEqual(await q('test'), [ids[3]]);
      const fillers = await q('filler');
      assert.equal(fillers.length, 100);
      assert.equal(fillers[0], 'msg_2bFiller0000000000000002001');
    } finally {
      await opened.close();
    }
  });

  test('GET /v1/messages/{msg_…|evt_…}: payload and one delivery per webhook; 404 for another account', async () => {
    const message = byId.get(ids[0])!;
    const one = await eventually(
      async () => {
        const r = await call(app, 'GET', `/v1/messages/${message.id}`, { token: lists });
        assert.equal(r.status, 200, r.text);
        return r.body.deliveries.every((d: { status: string }) => d.status === 'success') && r;
      },
      15000,
      'both deliveries',
    );
    assert.deepEqual(Object.keys(one.body), ['id', 'eventId', 'eventType', 'timestamp', 'tags', 'payload', 'deliveries']);
    assert.equal(one.body.eventId, message.eventId);
    assert.deepEqual(one.body.tags, grantTags(grants[0]));
    assert.deepEqual(one.body.payload.data, grants[0]);
    assert.deepEqual(new Set(one.body.deliveries.map((d: { webhookId: string }) => d.webhookId)), new Set(webhooks.map((w) => w.id)));
    for (const d of one.body.deliveries) {
      assert.deepEqual(Object.keys(d), ['webhookId', 'status', 'nextAttempt', 'attemptCount', 'lastAttempt', 'retriesStopped', 'recoverRunId']);
      assert.equal(d.recoverRunId, null, 'a delivery no recover or replay run queued');
      assert.equal(d.nextAttempt, null);
      assert.equal(d.attemptCount, 1);
      assert.deepEqual(Object.keys(d.lastAttempt), ['id', 'url', 'timestamp', 'status', 'responseStatusCode', 'responseDurationMs', 'triggerType']);
      assert.equal(d.lastAttempt.responseStatusCode, 200);
      const attempts = await call(app, 'GET', `/v1/webhooks/${d.webhookId}/messages/${message.id}/attempts`, { token: lists });
      assert.deepEqual(d.lastAttempt, attempts.body.results[0]);
    }
    const byEvent = await call(app, 'GET', `/v1/messages/${message.eventId}`, { token: lists });
    assert.deepEqual(byEvent.body, one.body);
    for (const id of [message.id, message.eventId]) {
      const foreign = await call(app, 'GET', `/v1/messages/${id}`, { token: otherTok });
      assertProblem(foreign, 404);
      assert.doesNotMatch(foreign.text, /Ada|grant:/);
    }
    for (const id of ['msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', 'evt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', 'not-an-id', message.id.replace('msg_', 'evt_x')]) {
      assertProblem(await call(app, 'GET', `/v1/messages/${id}`, { token: lists }), 404);
    }
  });
});

describe('EXT lastAttempt on a webhook’s messages', () => {
  test('null while the first attempt is under way, then the newest attempt with its status code', async () => {
    const releases: (() => void)[] = [];
    const holds = [0, 1].map(() => new Promise<void>((r) => releases.push(r)));
    const ep = receiver.endpoint((_r, n) => (n === 1 ? { hold: holds[0], status: 503 } : { hold: holds[1], status: 201 }));
    const w = await newWebhook(tok, ep);
    const sent = await call(app, 'POST', `/v1/webhooks/${w.id}/test`, { token: tok });
    assert.equal(sent.body.lastAttempt, null);
    const listed = async () => {
      const res = await call(app, 'GET', `/v1/webhooks/${w.id}/messages`, { token: tok });
      assert.equal(res.status, 200, res.text);
      return res.body.results.find((m: { id: string }) => m.id === sent.body.id);
    };
    await eventually(async () => ep.requests().length === 1, 15000, 'the first attempt to arrive');
    const during = await listed();
    assert.equal(during.status, 'sending');
    assert.equal(during.lastAttempt, null);
    releases[0]();
    const first = await eventually(
      async () => {
        const m = await listed();
        return m.lastAttempt && m;
      },
      15000,
      'the first attempt recorded',
    );
    assert.equal(first.lastAttempt.responseStatusCode, 503);
    assert.equal(first.lastAttempt.status, 'failed');
    assert.equal(first.lastAttempt.triggerType, 'scheduled');
    await eventually(async () => ep.requests().length === 2, 15000, 'the retry to arrive');
    releases[1]();
    const done = await eventually(
      async () => {
        const m = await listed();
        return m.status === 'success' && m;
      },
      15000,
      'the retry recorded',
    );
    assert.equal(done.lastAttempt.responseStatusCode, 201);
    assert.equal(done.lastAttempt.status, 'success');
    assert.notEqual(done.lastAttempt.id, first.lastAttempt.id);
    const attempts = await call(app, 'GET', `/v1/webhooks/${w.id}/messages/${sent.body.id}/attempts`, { token: tok });
    assert.deepEqual(done.lastAttempt, attempts.body.results[0]);
    const got = await call(app, 'GET', `/v1/webhooks/${w.id}/messages/${sent.body.id}`, { token: tok });
    assert.deepEqual(got.body.lastAttempt, done.lastAttempt);
  });

  test('lastAttempt is this webhook’s: a message to two webhooks shows each its own', async () => {
    const ok = receiver.endpoint(() => ({ status: 200 }));
    const gone = receiver.endpoint(() => ({ status: 410 }));
    const other = otherTok;
    const [wOk, wGone] = [await newWebhook(other, ok), await newWebhook(other, gone)];
    const grant = await newGrant(other, await newConnect(other));
    const message = await messageTagged(other, `grant:${grant.id}`);
    const last = async (w: string) =>
      eventually(
        async () => (await call(app, 'GET', `/v1/webhooks/${w}/messages/${message.id}`, { token: other })).body.lastAttempt,
        15000,
        `an attempt to ${w}`,
      );
    assert.equal((await last(wOk.id)).responseStatusCode, 200);
    assert.equal((await last(wGone.id)).responseStatusCode, 410);
  });
});

describe('EXT disabledReason and disabledAt', () => {
  test('a 410 disables with its reason and time; PATCH re-enables (both null) and disables "through the API"', async () => {
    const ep = receiver.endpoint(() => ({ status: 410 }));
    const w = await newWebhook(tok, ep);
    const sent = await call(app, 'POST', `/v1/webhooks/${w.id}/test`, { token: tok });
    const disabled = await eventually(
      async () => {
        const r = await call(app, 'GET', `/v1/webhooks/${w.id}`, { token: tok });
        return r.body.disabled && r.body;
      },
      15000,
      'the webhook to be disabled',
    );
    assert.equal(disabled.disabledReason, 'the endpoint answered 410 Gone');
    assert.match(disabled.disabledAt, ISO_MS);
    assert.ok(disabled.disabledAt >= sent.body.timestamp, `${disabled.disabledAt} ≥ ${sent.body.timestamp}`);
    const listed = await call(app, 'GET', '/v1/webhooks?pageLimit=100', { token: tok });
    assert.deepEqual(
      listed.body.results.find((x: { id: string }) => x.id === w.id),
      disabled,
    );

    const enabled = await call(app, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok, body: { disabled: false } });
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(enabled.body.disabled, false);
    assert.equal(enabled.body.disabledReason, null);
    assert.equal(enabled.body.disabledAt, null);

    const off = await call(app, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok, body: { disabled: true } });
    assert.equal(off.body.disabledReason, 'disabled through the API');
    assert.match(off.body.disabledAt, ISO_MS);
    assert.equal(off.body.disabledAt, off.body.updatedAt);
    // Disabling what is already disabled keeps the first reason and time.
    const again = await call(app, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok, body: { disabled: true, description: 'still off' } });
    assert.equal(again.body.disabledReason, off.body.disabledReason);
    assert.equal(again.body.disabledAt, off.body.disabledAt);
    const on = await call(app, 'PATCH', `/v1/webhooks/${w.id}`, { token: tok, body: { disabled: false } });
    assert.deepEqual([on.body.disabled, on.body.disabledReason, on.body.disabledAt], [false, null, null]);
    assert.deepEqual((await call(app, 'GET', `/v1/webhooks/${w.id}`, { token: tok })).body, on.body);
  });
});

describe('EXT GET /v1/grants/{id} with the token alone', () => {
  test("the account's grant with the token alone or with its Connect's key; another account's → 404; a bad key → 403", async () => {
    const connect = await newConnect(tok);
    const grant = await newGrant(tok, connect);
    const p = `/v1/grants/${grant.id}`;
    assertProblem(await call(app, 'GET', p), 401);
    const alone = await call(app, 'GET', p, { token: tok });
    assert.equal(alone.status, 200, alone.text);
    assert.deepEqual(alone.body, grant);
    const keyed = await call(app, 'GET', p, { token: tok, headers: { 'x-service-api-key': connect.apiKey } });
    assert.deepEqual(keyed.body, grant);
    const foreign = await call(app, 'GET', p, { token: otherTok });
    assertProblem(foreign, 404);
    assert.doesNotMatch(foreign.text, /Ada/);
    assertProblem(await call(app, 'GET', p, { token: tok, headers: { 'x-service-api-key': `sk_test_${'B'.repeat(32)}` } }), 403, /not valid/);
    const theirs = await newConnect(otherTok);
    assertProblem(await call(app, 'GET', p, { token: tok, headers: { 'x-service-api-key': theirs.apiKey } }), 403, /another account/);
    assertProblem(await call(app, 'GET', '/v1/grants/5b0c8a4e-2f7d-4c1e-9a3b-6d8e0f1a2b3c', { token: tok }), 404, /No grant with the id 5b0c8a4e/);
    assertProblem(await call(app, 'GET', '/v1/grants/not-a-uuid', { token: tok }), 400, /UUID/);
  });
});

describe('the console client (lib/console/connect-api)', () => {
  const clients: ConnectApi[] = [];
  let bare: http.Server | undefined;
  const client = (baseUrl = app.baseUrl) => {
    // The file's own account (the sandbox's on an app of its own): its grants reach no other file's webhooks.
    const own = app.defaultClient ?? { client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret };
    const c = new ConnectApi({ baseUrl, authUrl: app.baseUrl, audience: SANDBOX.audience, clientId: own.client_id, clientSecret: own.client_secret });
    clients.push(c);
    return c;
  };
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    bare?.close();
  });

  test('reads the EXT fields and calls the EXT routes', async () => {
    const api = client();
    const ep = receiver.endpoint(() => ({ status: 410 }));
    const w = await api.post('/v1/webhooks', { body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
    assert.equal(w.disabledReason, null);
    assert.equal(w.disabledAt, null);
    const sent = await api.post('/v1/webhooks/{id}/test', { params: { path: { id: w.id } }, body: {} });
    assert.match(sent.eventId ?? '', EVT);
    assert.deepEqual(sent.tags, ['test']);
    assert.equal(sent.lastAttempt, null, 'null: no attempt yet (not undefined: the service does say)');
    const off = await eventually(
      async () => {
        const x = await api.get('/v1/webhooks/{id}', { params: { path: { id: w.id } } });
        return x.disabled && x;
      },
      15000,
      'the 410 to disable the webhook',
    );
    assert.equal(off.disabledReason, 'the endpoint answered 410 Gone');
    assert.match(off.disabledAt ?? '', ISO_MS);
    const [listed] = (await api.get('/v1/webhooks/{id}/messages', { params: { path: { id: w.id } } })).results;
    assert.equal(listed.lastAttempt?.responseStatusCode, 410);

    const page = await api.get('/v1/messages', { params: { query: { tag: 'test', pageLimit: 1 } } });
    assert.equal(page.results.length, 1);
    assert.ok(page.nextPageToken);
    const byEvent = await api.get('/v1/messages/{id}', { params: { path: { id: sent.eventId! } } });
    assert.equal(byEvent.id, sent.id);
    assert.deepEqual(
      byEvent.deliveries.map((d) => [d.webhookId, d.status, d.lastAttempt?.responseStatusCode]),
      [[w.id, 'failed', 410]],
    );
    await assert.rejects(
      api.get('/v1/messages/{id}', { params: { path: { id: 'evt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE' } } }),
      (err: ConnectApiError) => err.status === 404 && !isUnsupported(err),
    );

    const connect = await newConnect(tok);
    const grant = await newGrant(tok, connect);
    assert.deepEqual(await api.get('/v1/grants/{id}', { params: { path: { id: grant.id } } }), grant);
    assert.deepEqual(await api.get('/v1/grants/{id}', { params: { path: { id: grant.id } }, headers: { 'x-service-api-key': connect.apiKey } }), grant);
    await assert.rejects(
      api.get('/v1/grants/{id}', { params: { path: { id: '5b0c8a4e-2f7d-4c1e-9a3b-6d8e0f1a2b3c' } } }),
      (err: ConnectApiError) => err.status === 404 && !isUnsupported(err),
    );
    await assert.rejects(
      api.get('/v1/grants/{id}', { params: { path: { id: grant.id } }, headers: { 'x-service-api-key': `sk_test_${'C'.repeat(32)}` } }),
      (err: ConnectApiError) => err.status === 403 && !isUnsupported(err),
    );
  });

  test('marks the EXT routes unsupported on a service without them', async () => {
    // A service that answers every /v1 path with a router's 404 (tokens still come from the app).
    bare = http.createServer((req, res) => {
      res.writeHead(404, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Not Found', status: 404, detail: `No operation at ${req.method} ${req.url?.split('?')[0]}.` }));
    });
    await new Promise<void>((r) => bare!.listen(0, '127.0.0.1', () => r()));
    const api = client(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`);
    const unsupported = (err: unknown) => isUnsupported(err);
    await assert.rejects(api.get('/v1/messages', { params: { query: { tag: 'test' } } }), unsupported);
    await assert.rejects(api.get('/v1/messages/{id}', { params: { path: { id: 'evt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE' } } }), unsupported);
    await assert.rejects(api.get('/v1/grants/{id}', { params: { path: { id: '5b0c8a4e-2f7d-4c1e-9a3b-6d8e0f1a2b3c' } } }), unsupported);
  });
});
