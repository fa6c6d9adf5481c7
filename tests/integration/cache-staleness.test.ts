// Own app: two instances on one database with a shared TOKEN_ISSUER, one of them without a worker, and changes behind their backs.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { queryAppDb, runCli, startApp } from '../helpers/app';
import { call, eventually, sleep, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';

// The per-process caches of issue 28 (docs/API.md, "What a process may cache"), each bound proved
// across two app processes on one PostgreSQL database: a request to either app is answered from
// its own cache. The embedded store belongs to one process, so this needs TEST_DATABASE_URL.

const ON_POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
const BOUND_MS = 1000;
const ISSUER = 'https://api.cache-staleness.test';
const GRANT = { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' };
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

type TStarted = Awaited<ReturnType<typeof startApp>>;

describe('per-process caches across two processes', { skip: !ON_POSTGRES && 'needs TEST_DATABASE_URL: the embedded store belongs to one process' }, () => {
  let a: TStarted;
  let b: TStarted;
  let receiver: TReceiver;
  let tok: string;
  let connect: { id: string; apiKey: string };
  before(async () => {
    receiver = await startReceiver();
    // One issuer: each accepts the other's tokens (docs/OPERATIONS.md, Scale-out).
    a = await startApp({ accounts: ['cache-a', 'cache-revoked'], env: { TOKEN_ISSUER: ISSUER } });
    b = await startApp({ env: { WORKER_IN_PROCESS: 'false', DATABASE_URL: a.env.DATABASE_URL, TOKEN_ISSUER: ISSUER } });
    tok = await token(a, a.clients['cache-a']);
    const np = await call(a, 'POST', '/v1/nonprofits', { token: tok, body: { ein: '129876543', user: { email: 'cache@example.org' } } });
    assert.equal(np.status, 201, np.text);
    const c = await call(a, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
    connect = { id: c.body.id, apiKey: (await call(a, 'GET', `/v1/connects/${c.body.id}`, { token: tok })).body.apiKey };
  });
  after(async () => {
    await b?.stop();
    await a?.destroy();
    await receiver?.close();
  });

  const grant = (app: TStarted, apiKey = connect.apiKey) =>
    call(app, 'POST', '/v1/grants', { token: tok, body: GRANT, headers: { 'x-service-api-key': apiKey } });
  /** Waits until `ms` after `t0` (performance.now()). */
  const until = (t0: number, ms: number) => sleep(Math.max(0, t0 + ms - performance.now()));

  test('a revoked client is refused by every process within 1 s', async () => {
    const revoked = await token(a, a.clients['cache-revoked']);
    for (const app of [a, b]) assert.equal((await call(app, 'GET', '/v1/webhooks', { token: revoked })).status, 200);
    await runCli('service-cli', ['clients:revoke', a.clients['cache-revoked'].client_id], a.env);
    const t0 = performance.now();
    // Both processes had the client cached as good a moment ago: from 1 s after the commit on, neither may use it.
    await until(t0, BOUND_MS);
    for (const app of [a, b]) {
      const res = await call(app, 'GET', '/v1/webhooks', { token: revoked });
      assert.equal(res.status, 401, `${app.baseUrl}: ${res.text}`);
      assert.match(res.body.detail, /revoked/);
    }
  });

  test("a Connect's API key changed in the store is refused by every process within 1 s, the new one accepted", async () => {
    for (const app of [a, b]) assert.equal((await grant(app)).status, 201);
    const newKey = `${connect.apiKey}-rotated`;
    await queryAppDb(a, 'update service.connects set api_key = $1, api_key_hash = $2 where id = $3', [newKey, sha256(newKey), connect.id]);
    const t0 = performance.now();
    await until(t0, BOUND_MS);
    for (const app of [a, b]) {
      const old = await grant(app);
      assert.equal(old.status, 403, `${app.baseUrl}: ${old.text}`);
      assert.match(old.body.detail, /not valid/);
      assert.equal((await grant(app, newKey)).status, 201);
    }
    connect.apiKey = newKey;
  });

  /** Whether the grant's event has reached `ep` (its body names the grant). */
  const arrived = (ep: ReturnType<TReceiver['endpoint']>, grantId: string) => ep.requests().some((r) => r.body.includes(grantId));

  /** A grant made in `app` that reaches `ep`: one every 50 ms until one does (fan-out happens as a grant is made; its arrival follows). */
  async function grantReaching(app: TStarted, ep: ReturnType<TReceiver['endpoint']>, stopAt = Infinity) {
    const made: { id: string; at: number }[] = [];
    while (performance.now() < stopAt && made.length < 200) {
      made.push({ id: (await grant(app)).body.id, at: performance.now() });
      await sleep(50);
      const first = made.find((g) => arrived(ep, g.id));
      if (first) return first;
    }
    await sleep(1000); // the arrivals of the last few
    return made.find((g) => arrived(ep, g.id));
  }

  test('a webhook created in one process reaches fan-out in the other at once (NOTIFY), and in its own without waiting', async () => {
    const control = receiver.endpoint();
    await call(a, 'POST', '/v1/webhooks', { token: tok, body: { url: control.url, eventTypes: ['grant.succeeded'] } });
    // b learns of the control webhook (by its NOTIFY, or at the latest its TTL): a grant of b's reaches it.
    assert.ok(await grantReaching(b, control), 'a grant of b reaches the control webhook');
    // A round: b's entry filled afresh (the TTL since the last fill has run out), a webhook made in a at
    // once after; a grant of b's that reaches it while that entry's TTL still runs was told by the
    // NOTIFY. A round whose webhook could not even be made within the TTL (a machine that busy) proves
    // nothing either way and is played again.
    let proved = false;
    for (let round = 0; round < 3 && !proved; round++) {
      await sleep(BOUND_MS + 50);
      await grant(b);
      const filled = performance.now();
      const ep = receiver.endpoint();
      const made = await call(a, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
      assert.equal(made.status, 201);
      // In the process that made it: no wait at all.
      const inA = await grant(a);
      await eventually(async () => arrived(ep, inA.body.id), 15000, 'the grant made in a at the new webhook');
      if (performance.now() - filled >= BOUND_MS * 0.8) {
        await call(a, 'DELETE', `/v1/webhooks/${made.body.id}`, { token: tok });
        continue;
      }
      const inB = await grantReaching(b, ep, filled + BOUND_MS);
      assert.ok(inB, 'a grant of b reaches the new webhook');
      assert.ok(
        inB.at < filled + BOUND_MS,
        `b fanned out to the new webhook ${Math.round(inB.at - filled)} ms after its entry was filled: within the TTL, so by the NOTIFY`,
      );
      await call(a, 'DELETE', `/v1/webhooks/${made.body.id}`, { token: tok });
      proved = true;
    }
    assert.ok(proved, 'three rounds in which the webhook could not be made within the TTL');
    const ep = receiver.endpoint();
    const made = await call(a, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
    assert.equal(made.status, 201);
    assert.ok(await grantReaching(b, ep), 'a grant of b reaches the webhook the rest of this test changes');
    // Subscribed to another type only, it gets nothing; changed to grant.succeeded, at once again.
    // (Past the TTL: what the NOTIFY does is proved above; here, that an unsubscribed type gets nothing.)
    await call(a, 'PATCH', `/v1/webhooks/${made.body.id}`, { token: tok, body: { eventTypes: ['message.attempt.exhausted'] } });
    await sleep(BOUND_MS + 50);
    const off = await grant(b);
    await eventually(async () => arrived(control, off.body.id), 15000, 'the control webhook');
    await call(a, 'PATCH', `/v1/webhooks/${made.body.id}`, { token: tok, body: { eventTypes: ['grant.succeeded'] } });
    assert.ok(await grantReaching(b, ep), 'the re-subscribed webhook');
    assert.ok(!arrived(ep, off.body.id), 'no delivery while unsubscribed');
    // Deleted: never fanned out to again, in either process.
    assert.equal((await call(a, 'DELETE', `/v1/webhooks/${made.body.id}`, { token: tok })).status, 204);
    const gone = await Promise.all([grant(a), grant(b)]); // a deleted webhook is never queued, even from a stale entry (emit-event.ts)
    await eventually(async () => gone.every((g) => arrived(control, g.body.id)), 15000, 'the control webhook');
    await sleep(200);
    assert.ok(!gone.some((g) => arrived(ep, g.body.id)), 'nothing for the deleted webhook');
  });

  test('a webhook written without a notification (straight into the store) reaches fan-out within the 1 s TTL', async () => {
    const ep = receiver.endpoint();
    const [{ account_id: accountId }] = await queryAppDb<{ account_id: string }>(a, 'select account_id from service.connects where id = $1', [connect.id]);
    await grant(b); // b's entry filled now
    await queryAppDb(
      a,
      `with w as (insert into service.webhooks (id, account_id, url, event_types) values ('ep_2bCacheTtlFallback000000000', $1, $2, '{grant.succeeded}') returning id)
       insert into service.webhook_secrets (webhook_id, secret) select id, 'whsec_' || encode(sha256(random()::text::bytea), 'base64') from w`,
      [accountId, ep.url],
    );
    const t0 = performance.now();
    await until(t0, BOUND_MS);
    const late = await grant(b);
    await eventually(async () => arrived(ep, late.body.id), 15000, 'the grant at the webhook the cache was not told of');
  });
});
