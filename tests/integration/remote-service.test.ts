// Own app: a console-only instance pointed at another app's service, with a wrong secret, and restarts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startApp, type TApp } from '../helpers/app';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';
import { bannerApiBaseUrl, consoleOnlyEnv } from '../helpers/split-setup';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// The console against a service that is not its own: instance B runs with SERVICE_MODE=off and
// points its sandbox environment at instance A's API, as it would at a remote sandbox — set up
// from A's banner alone: the API base URL as printed (with /v1) and a client's credentials.

let a: Awaited<ReturnType<typeof startApp>>;
let b: Awaited<ReturnType<typeof startApp>>;
let ops: { client_id: string; client_secret: string };
before(async () => {
  a = await startApp({ accounts: ['ops'] });
  ops = a.clients.ops;
  b = await startApp({ env: consoleOnlyEnv(a, ops) });
});
after(async () => {
  await b?.stop();
  await a?.stop();
});

/** Lines of `app`'s log that match `pattern`. */
const logLines = (app: TApp, pattern: RegExp) =>
  app
    .logs()
    .split('\n')
    .filter((l) => pattern.test(l));

test("B's banner names the API it talks to, and its start proved the credentials with one token exchange", async () => {
  const base = bannerApiBaseUrl(a);
  assert.equal(base, `${a.baseUrl}/v1`, "A's banner prints the base URL with /v1");
  const listed = await eventually(async () => logLines(b, /^\s+sandbox\s/)[0], 5000, 'the sandbox line of the banner');
  assert.match(listed, /^ {4}sandbox {8}\S/, 'aligned with the lines above');
  assert.equal(listed.trim().replace(/\s+/, ' '), `sandbox ${base}  (auth ${a.baseUrl}, audience https://api.giving-connect.test, client_id ${ops.client_id})`);
  const checked = await eventually(async () => logLines(b, /^Console sandbox:/)[0], 15000, "B's start check");
  assert.equal(checked, `Console sandbox: token exchange at ${a.baseUrl}/oauth/token works (client_id ${ops.client_id}).`);
  assert.equal(b.logs().includes(ops.client_secret), false, 'the secret is never printed');
});

test('a start with a wrong secret says which variables to fix in one line, and serves anyway', async (t) => {
  const c = await startApp({ env: consoleOnlyEnv(a, { client_id: ops.client_id, client_secret: 'not-the-right-secret' }) });
  t.after(() => c.stop());
  const lines = await eventually(
    async () => (logLines(c, /^Console sandbox:/).length ? logLines(c, /^Console sandbox:/) : undefined),
    15000,
    "C's start check",
  );
  assert.equal(lines.length, 1);
  assert.match(
    lines[0],
    new RegExp(
      `^Console sandbox: ${a.baseUrl}/oauth/token does not accept client ${ops.client_id} with this secret \\(invalid_client\\): check CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET\\. Serving anyway`,
    ),
  );
  assert.equal((await call(c, 'GET', '/api/health')).status, 200);
  assert.equal(c.logs().includes('not-the-right-secret'), false);
});

test('with SERVICE_MODE=off the embedded service answers 404 everywhere', async () => {
  for (const [method, path] of [
    ['POST', '/oauth/token'],
    ['GET', '/.well-known/jwks.json'],
    ['GET', '/v1/nonprofit/530196605'],
    ['POST', '/v1/webhooks'],
    ['GET', '/connect/test_x'],
  ]) {
    assertProblem(await call(b, method, path), 404, /SERVICE_MODE=off/);
  }
});

test("a webhook on the remote service delivers to this console's receiver and shows on its timeline", async () => {
  const cookie = await staffCookie(b);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await call(b, 'POST', '/api/receivers', { body: { name: 'remote', secret }, headers: { cookie } });
  assert.equal(receiver.status, 201, receiver.text);

  const bearer = await token(a, ops);
  const hook = await call(a, 'POST', '/v1/webhooks', {
    token: bearer,
    body: { url: `${b.baseUrl}/ingest/${receiver.body.slug}`, eventTypes: ['grant.succeeded'], secret },
  });
  assert.equal(hook.status, 201, hook.text);
  const sent = await call(a, 'POST', `/v1/webhooks/${hook.body.id}/test`, { token: bearer });
  assert.equal(sent.status, 200, sent.text);

  const message = await eventually(
    async () => {
      const res = await call(b, 'GET', `/api/webhooks/${hook.body.id}/timeline`, { headers: { cookie } });
      assert.equal(res.status, 200, res.text);
      const m = res.body.messages.find((x: { id: string }) => x.id === sent.body.id);
      // The receipt can land before the service records the attempt's outcome: wait for both.
      return m?.reconciliation === 'delivered-and-received' && m.status === 'success' ? m : undefined;
    },
    15000,
    'the message delivered and received',
  );
  assert.equal(message.status, 'success');
  assert.equal(message.receipts.length, 1);
  assert.equal(message.receipts[0].verdict, 'valid');
  assert.equal(message.lastAttempt.responseStatusCode, 200);
  assert.match(message.explanation, /^delivered: arrived /);
});

test("the grants page of an empty Connect links to the donor page on the API's host, not to this console", async () => {
  const cookie = await staffCookie(b);
  const bearer = await token(a, ops);
  const np = await call(a, 'POST', '/v1/nonprofits', { token: bearer, body: { ein: '131624100', user: { email: 'ops@example.org' } } });
  assert.ok(np.status === 200 || np.status === 201, np.text);
  const connect = await call(a, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: bearer });
  assert.ok(connect.status === 200 || connect.status === 201, connect.text);
  const page = await call(b, 'GET', `/connects/${connect.body.id}/grants`, { headers: { cookie } });
  assert.equal(page.status, 200);
  assert.match(page.text, /No grants yet/);
  assert.ok(page.text.includes(`href="${a.baseUrl}/connect/${connect.body.id}"`), 'the link is absolute, on A');
  assert.equal((await call(a, 'GET', `/connect/${connect.body.id}`)).status, 200, 'and A serves it');
});

test('upstream trouble is logged once per change of state, with the request id', async () => {
  const cookie = await staffCookie(b);
  const down = /^Connect API sandbox: .* unreachable \(/;
  const up = /^Connect API sandbox: .* reachable again \(/;
  assert.equal((await call(b, 'GET', '/webhooks', { headers: { cookie } })).status, 200);
  await a.stop();
  try {
    for (let i = 0; i < 3; i++) {
      const res = await call(b, 'GET', '/api/webhooks/ep_any/timeline', { headers: { cookie } });
      assert.ok(res.status >= 500, `${res.status}: ${res.text}`);
    }
  } finally {
    await a.restart();
  }
  assert.equal(logLines(b, down).length, 1, b.logs());
  assert.match(logLines(b, down)[0], new RegExp(`^Connect API sandbox: ${a.baseUrl} unreachable \\(.+; request id req_[0-9a-f]{32}\\)$`));
  await eventually(async () => (await call(b, 'GET', '/webhooks', { headers: { cookie } })).status === 200, 15000, 'B working again');
  await call(b, 'GET', '/webhooks', { headers: { cookie } });
  assert.equal(logLines(b, up).length, 1, b.logs());
  assert.equal(logLines(b, down).length, 1);
  assert.match(logLines(b, up)[0], /request id req_[0-9a-f]{32}\)$/);
  assert.equal(b.logs().includes(ops.client_secret), false);
  assert.doesNotMatch(b.logs(), /Bearer [A-Za-z0-9]|eyJ/);
});
