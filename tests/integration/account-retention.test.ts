import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { screenshotPages } from '../helpers/screenshots';
import { SANDBOX_CLIENT, sharedApp, type TSharedApp } from '../helpers/shared-app';

// The service's retention per account (EXT GET/PATCH /v1/retention) and its change on the console's
// /retention (PATCH /api/retention/service). Two accounts each deliver a message to a real receiver;
// one sets a 5s payload and 12s message retention: its message loses its payload and its attempt's
// answer, then the message, while the other account's (older) message keeps everything under the
// deployment's defaults. The console changes its account's (the sandbox's) values, audited, and
// shows them. Bad input: a 400 naming the field, nothing changed; viewers and operators read, only
// an admin changes.
// On the suite's shared app (tests/helpers/shared-app.ts) the sandbox's messages are every console
// file's: the seconds are set on this file's own account (`mine`), through the API the console's
// change goes through, and the console sets the sandbox's values longer than the defaults (which
// purges nothing of anyone's) and back. Its staff are its own (unique e-mails), so the audit it reads is theirs.

type TSetting = { key: string; value: string; source: string };

describe('retention per account, changed by an admin on the console', () => {
  let app: TSharedApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const tokens: Record<string, string> = {};
  const cookies: Record<string, string> = {};
  const as = (who: string, method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie: cookies[who] } });
  const api = (who: string, method: string, path: string, body?: unknown) => call(app, method, path, { token: tokens[who], body });

  /** A webhook of `who` to the receiver, with one test message delivered; its ids. */
  async function delivered(who: string) {
    const ep = receiver.endpoint(() => ({ status: 200, body: `answer for ${who}` }));
    const hook = await api(who, 'POST', '/v1/webhooks', { url: ep.url, eventTypes: ['grant.succeeded'] });
    assert.equal(hook.status, 201, hook.text);
    const sent = await api(who, 'POST', `/v1/webhooks/${hook.body.id}/test`);
    assert.equal(sent.status, 200, sent.text);
    const path = `/v1/webhooks/${hook.body.id}/messages/${sent.body.id}`;
    await eventually(async () => (await api(who, 'GET', path)).body.status === 'success', 15_000, `${who}'s message delivered`);
    const attempt = (await api(who, 'GET', `${path}/attempts`)).body.results[0];
    return { path, attemptPath: `${path}/attempts/${attempt.id}` };
  }

  const TAG = randomBytes(4).toString('hex');
  const email = (role: string) => `${role}-account-retention-${TAG}@example.org`;

  before(async () => {
    receiver = await startReceiver();
    app = await sharedApp({ accounts: ['other'] });
    tokens.mine = await token(app);
    tokens.other = await token(app, app.clients.other);
    tokens.sandbox = await token(app, SANDBOX_CLIENT); // the console's account
    // This file's admin, made by the seeded one; its viewer and operator, made by its admin.
    cookies.admin = await staffCookie(app);
    for (const role of ['admin', 'viewer', 'operator']) {
      const res = await as('admin', 'POST', '/api/users', { email: email(role), role });
      assert.equal(res.status, 201, res.text);
      cookies[role] = await staffCookie(app, { email: email(role), password: res.body.password });
    }
  });
  after(async () => {
    await app?.stop();
    await receiver?.close();
  });

  test('GET /v1/retention: the deployment’s defaults until an account sets its own', async () => {
    const res = await api('mine', 'GET', '/v1/retention');
    assert.equal(res.status, 200, res.text);
    const { partitions: _partitions, ...retention } = res.body; // the deployment's partitions: their own test below
    assert.deepEqual(retention, {
      effective: { messagePayloadRetention: '90d', messageRetention: '365d' },
      overrides: { messagePayloadRetention: null, messageRetention: null },
      defaults: { messagePayloadRetention: '90d', messageRetention: '365d' },
      updatedAt: null,
    });
    assertProblem(await call(app, 'GET', '/v1/retention'), 401);
  });

  test("the service's partitions: the API and the retention page show each table's, with its next drop", async () => {
    // The deployment's, read only: the shared store's attempts (every file's), in the template's first partition from the
    // beginning (attempts_p0, made by migration 0037) and those after it; nothing past the default year, so none is held.
    const res = await api('mine', 'GET', '/v1/retention');
    assert.equal(res.status, 200, res.text);
    // service.attempts (0037), service.deliveries (0039) and service.messages (0040), each with its first partition from the beginning.
    const [p, d, msgs, ...others] = res.body.partitions;
    assert.deepEqual(others, []);
    assert.equal(p.table, 'service.attempts');
    assert.equal(d.table, 'service.deliveries');
    assert.equal(msgs.table, 'service.messages');
    assert.equal(msgs.oldestFrom, null);
    assert.ok(Date.parse(msgs.newestTo) >= Date.now() + 6 * 86_400_000, `messages' made a week ahead (to ${msgs.newestTo})`);
    assert.equal(msgs.nextDrop.partition, 'service.messages_p0');
    assert.deepEqual(msgs.held, []);
    assert.equal(d.oldestFrom, null);
    assert.ok(Date.parse(d.newestTo) >= Date.now() + 6 * 86_400_000, `deliveries' made a week ahead (to ${d.newestTo})`);
    assert.equal(d.nextDrop.partition, 'service.deliveries_p0');
    assert.deepEqual(d.held, []);
    assert.equal(p.oldestFrom, null, 'the first partition holds everything from the beginning');
    assert.ok(Date.parse(p.newestTo) >= Date.now() + 6 * 86_400_000, `made a week ahead (to ${p.newestTo})`);
    assert.ok(p.count >= 3 && p.bytes >= p.count * 8192, `${p.count} partitions, ${p.bytes} bytes`);
    assert.equal(p.retention, 365 * 86_400_000);
    assert.equal(p.nextDrop.partition, 'service.attempts_p0', 'the oldest goes first');
    const dropAt = Date.parse(p.nextDrop.at) - p.retention;
    assert.ok(dropAt <= Date.now() && dropAt > Date.now() - p.retention, `a year after its end, the upgrade's moment: not yet (${p.nextDrop.at})`);
    assert.deepEqual(p.held, []);

    const page = (await fetch(`${app.baseUrl}/retention`, { headers: { cookie: cookies.viewer } }).then((r) => r.text())).replaceAll('<!-- -->', '');
    assert.match(page, /Service partitions/);
    // (Its table name in a <strong> since the card layout of 15e27f4.)
    assert.match(
      page,
      new RegExp(`<td[^>]*><strong[^>]*>service\\.attempts</strong></td><td[^>]*>${p.count}</td><td[^>]*>the beginning</td>`),
      'its row: count, from',
    );
    assert.match(page, /<code>attempts_p0<\/code> after <time dateTime="[^"]+"/, 'the next drop: which and when');
    assert.match(
      page,
      new RegExp(`<td[^>]*><strong[^>]*>service\\.deliveries</strong></td><td[^>]*>${d.count}</td><td[^>]*>the beginning</td>`),
      "deliveries' row",
    );
    assert.match(page, /<code>deliveries_p0<\/code> after <time dateTime="[^"]+"/, "deliveries' next drop");
    assert.match(
      page,
      new RegExp(`<td[^>]*><strong[^>]*>service\\.messages</strong></td><td[^>]*>${msgs.count}</td><td[^>]*>the beginning</td>`),
      "messages' row",
    );
    assert.match(page, /<code>messages_p0<\/code> after <time dateTime="[^"]+"/, "messages' next drop");

    // The console's own: its receipts, partitioned by id (migration 0038), receipts_p0 from the beginning goes first.
    assert.match(page, /Receipt partitions/);
    assert.match(page, /<td[^>]*><strong[^>]*>console\.receipts<\/strong><\/td><td[^>]*>\d+<\/td><td[^>]*>the beginning<\/td>/, 'its row: count, from');
    assert.match(page, /<code>receipts_p0<\/code> after <time dateTime="[^"]+"/, 'the next receipt partition drop: which and when');

    // /metrics shows the same (tests/integration/health.test.ts: the shared app serves none).
  });

  test('PATCH /v1/retention: bad input is a 400 naming the field, and nothing changes', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ messagePayloadRetention: '5x' }, 'messagePayloadRetention', /must be a duration such as 90d/],
      [{ messageRetention: '0s' }, 'messageRetention', /must be a duration/],
      [{ messageRetention: '4000d' }, 'messageRetention', /between 1s and 3650d/],
      [{ messagePayloadRetention: 30 }, 'messagePayloadRetention', /must be a duration/],
      [{ messagePayloadRetention: '400d' }, 'messagePayloadRetention', /no longer than messages/],
      [{ messageRetention: '30d' }, 'messageRetention', /no longer than messages \(messagePayloadRetention 90d > messageRetention 30d\)/],
      [{ messagePayloadRetention: '1d', keepForever: true }, '', /unknown field: keepForever/],
    ];
    for (const [body, path, message] of cases) {
      const problem = assertProblem(await api('mine', 'PATCH', '/v1/retention', body), 400);
      assert.equal(problem.errors[0].path, path, JSON.stringify(problem));
      assert.match(problem.errors[0].message, message);
    }
    assert.equal((await api('mine', 'GET', '/v1/retention')).body.updatedAt, null, 'nothing stored');
  });

  test('the console: viewers and operators read the account’s values; only an admin changes them; bad values are named', async () => {
    for (const who of ['viewer', 'operator']) {
      const read = await as(who, 'GET', '/api/retention/service');
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(
        (read.body.settings as TSetting[]).map((s) => [s.key, s.value, s.source]),
        [
          ['MESSAGE_PAYLOAD_RETENTION', '90d', 'default'],
          ['MESSAGE_RETENTION', '365d', 'default'],
        ],
      );
      assert.equal((await as(who, 'PATCH', '/api/retention/service', { MESSAGE_PAYLOAD_RETENTION: '5s' })).status, 403, who);
      const page = await fetch(`${app.baseUrl}/retention`, { headers: { cookie: cookies[who] } });
      assert.equal(page.status, 200, who);
      const html = (await page.text()).replaceAll('<!-- -->', '');
      assert.match(html, /data-testid="service-retention-settings"/);
      assert.match(html, /id="retention-MESSAGE_PAYLOAD_RETENTION">90d</, 'the value shown');
      assert.doesNotMatch(html, /<input[^>]*id="retention-MESSAGE_PAYLOAD_RETENTION"/, 'no input below admin');
      assert.doesNotMatch(html, /data-testid="erasure-form"/, 'erasure is an admin’s');
    }
    const cases: [unknown, string, RegExp][] = [
      [{ MESSAGE_PAYLOAD_RETENTION: '5 days' }, 'MESSAGE_PAYLOAD_RETENTION', /must be a duration/],
      [{ MESSAGE_RETENTION: '1s' }, 'MESSAGE_RETENTION', /no longer than messages \(MESSAGE_PAYLOAD_RETENTION 90d > MESSAGE_RETENTION 1s\)/],
      [{ RECEIPT_RETENTION: '1d' }, '', /unknown field: RECEIPT_RETENTION/],
    ];
    for (const [body, path, message] of cases) {
      const res = await as('admin', 'PATCH', '/api/retention/service', body);
      assertProblem(res, 400);
      assert.equal(res.body.errors[0].path, path, JSON.stringify(res.body));
      assert.match(res.body.errors[0].message, message);
      assert.ok(res.body.detail.includes(path), res.body.detail);
    }
    assert.equal((await api('sandbox', 'GET', '/v1/retention')).body.updatedAt, null, 'nothing stored');
  });

  test('an account’s 5s purges only its own messages; the other’s keep theirs', async (t) => {
    // Back to the defaults whatever happens here: the next test reads this account's as the defaults.
    t.after(async () => {
      const reset = await api('mine', 'PATCH', '/v1/retention', { messagePayloadRetention: null, messageRetention: null });
      assert.equal(reset.status, 200, reset.text);
    });
    // The other account's message first: older than this one's, so a purge that ignored whose it is would take it too.
    const theirs = await delivered('other');
    const mine = await delivered('mine');

    // The payload's 5s alone first: the purged payload and answer stay to be read until the rows' own retention is set
    // below. With both at once (5s and 12s) the rows went 7 s after the payload, and on a loaded store the answer's purge
    // fell in the pass that deleted the message (an attempt made seconds after its message: due seconds later), so the
    // purged answer was never there to see (CI's embedded pass: its attempt 404, then a timeout).
    const res = await api('mine', 'PATCH', '/v1/retention', { messagePayloadRetention: '5s' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.overrides, { messagePayloadRetention: '5s', messageRetention: null });
    const other = await api('other', 'GET', '/v1/retention');
    assert.deepEqual(other.body.effective, { messagePayloadRetention: '90d', messageRetention: '365d' }, 'the other account keeps the defaults');

    const purged = await eventually(async () => (await api('mine', 'GET', mine.path)).body.payload?.purged, 30_000, 'this account’s payload purged');
    assert.equal(purged.retention, '5s');
    // The attempts' bodies are a step of the purge of their own, and an attempt is younger than its
    // message: its body may still be there when the payload is gone (CI's embedded pass saw it so).
    const answer = await eventually(
      async () => {
        const res = await api('mine', 'GET', mine.attemptPath);
        return res.body.response === '' && res;
      },
      30_000,
      'this account’s attempt body purged',
    );
    assert.equal(answer.body.responsePurged.retention, '5s');
    const kept = await api('other', 'GET', theirs.path);
    assert.equal(kept.body.payload.purged, undefined, 'the other account’s payload is kept');
    assert.equal(kept.body.payload.type, 'grant.succeeded');
    assert.equal((await api('other', 'GET', theirs.attemptPath)).body.response, 'answer for other');

    // Then the rows' 12s: this account's message goes once that old; the other's (older still) stays.
    const rows = await api('mine', 'PATCH', '/v1/retention', { messageRetention: '12s' });
    assert.equal(rows.status, 200, rows.text);
    assert.deepEqual(rows.body.overrides, { messagePayloadRetention: '5s', messageRetention: '12s' });
    await eventually(async () => (await api('mine', 'GET', mine.path)).status === 404, 30_000, 'this account’s message gone after 12s');
    assert.equal((await api('other', 'GET', theirs.path)).status, 200, 'the other account’s message stays');
  });

  test('an admin changes the console’s account’s values on the console: sent to the service, shown, audited, and back to the defaults', async () => {
    // Longer than the defaults: the sandbox is every console file's account on the shared app, and this purges nothing of theirs.
    const res = await as('admin', 'PATCH', '/api/retention/service', { MESSAGE_PAYLOAD_RETENTION: '3000d', MESSAGE_RETENTION: '3650d' });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(
      (res.body.settings as TSetting[]).map((s) => [s.key, s.value, s.source]),
      [
        ['MESSAGE_PAYLOAD_RETENTION', '3000d', 'account'],
        ['MESSAGE_RETENTION', '3650d', 'account'],
      ],
    );
    assert.deepEqual(
      (await api('sandbox', 'GET', '/v1/retention')).body.overrides,
      { messagePayloadRetention: '3000d', messageRetention: '3650d' },
      'the service holds them for the console’s account',
    );
    assert.deepEqual((await api('mine', 'GET', '/v1/retention')).body.overrides, { messagePayloadRetention: null, messageRetention: null }, 'not for another');

    const audit = await as('admin', 'GET', `/api/audit?action=retention.service.update&actor=${email('admin')}`);
    assert.deepEqual(
      (audit.body.results as { result: string; detail: Record<string, string | null> }[]).map((r) => [r.result, r.detail]),
      [
        ['ok', { MESSAGE_PAYLOAD_RETENTION: '3000d', MESSAGE_RETENTION: '3650d' }],
        ['bad_request', {}],
      ],
      'the change audited; of the refused ones, the one the service refused',
    );
    const page = await fetch(`${app.baseUrl}/retention`, { headers: { cookie: cookies.admin } }).then((r) => r.text());
    assert.match(page, /<input[^>]*id="retention-MESSAGE_PAYLOAD_RETENTION"[^>]*value="3000d"/, 'an admin edits it');
    assert.match(page, /set for this account/);
    const shots = process.env.RETENTION_SCREENSHOTS;
    if (shots) {
      await screenshotPages(app, cookies.admin, shots, ['/retention']);
      fs.mkdirSync(path.join(shots, 'viewer'), { recursive: true });
      await screenshotPages(app, cookies.viewer, path.join(shots, 'viewer'), ['/retention']);
    }

    const back = await as('admin', 'PATCH', '/api/retention/service', { MESSAGE_PAYLOAD_RETENTION: null, MESSAGE_RETENTION: null });
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(
      (back.body.settings as TSetting[]).map((s) => [s.value, s.source]),
      [
        ['90d', 'default'],
        ['365d', 'default'],
      ],
      'null: the default again',
    );
  });
});
