import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { startApp } from '../helpers/app';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';

// The console against a service that is not its own: instance B runs with SERVICE_MODE=off and
// points its sandbox environment at instance A's API, as it would at a remote sandbox.

let a: Awaited<ReturnType<typeof startApp>>;
let b: Awaited<ReturnType<typeof startApp>>;
before(async () => {
  a = await startApp();
  b = await startApp({ env: { SERVICE_MODE: 'off', CONNECT_API_BASE_URL: a.baseUrl, CONNECT_AUTH_URL: a.baseUrl } });
});
after(async () => {
  await b?.stop();
  await a?.stop();
});

test('with SERVICE_MODE=off the embedded service answers 404 everywhere', async () => {
  for (const [method, path] of [['POST', '/oauth/token'], ['GET', '/.well-known/jwks.json'], ['GET', '/v1/nonprofit/530196605'], ['POST', '/v1/webhooks'], ['GET', '/connect/test_x']]) {
    assertProblem(await call(b, method, path), 404, /SERVICE_MODE=off/);
  }
});

test("a webhook on the remote service delivers to this console's receiver and shows on its timeline", async () => {
  const cookie = await staffCookie(b);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await call(b, 'POST', '/api/receivers', { body: { name: 'remote', secret }, headers: { cookie } });
  assert.equal(receiver.status, 201, receiver.text);

  const bearer = await token(a);
  const hook = await call(a, 'POST', '/v1/webhooks', { token: bearer, body: { url: `${b.baseUrl}/ingest/${receiver.body.slug}`, eventTypes: ['grant.succeeded'], secret } });
  assert.equal(hook.status, 201, hook.text);
  const sent = await call(a, 'POST', `/v1/webhooks/${hook.body.id}/test`, { token: bearer });
  assert.equal(sent.status, 200, sent.text);

  const message = await eventually(async () => {
    const res = await call(b, 'GET', `/api/webhooks/${hook.body.id}/timeline`, { headers: { cookie } });
    assert.equal(res.status, 200, res.text);
    const m = res.body.messages.find((x: { id: string }) => x.id === sent.body.id);
    return m?.reconciliation === 'delivered-and-received' ? m : undefined;
  }, 15000, 'the message delivered and received');
  assert.equal(message.status, 'success');
  assert.equal(message.receipts.length, 1);
  assert.equal(message.receipts[0].verdict, 'valid');
  assert.equal(message.lastAttempt.responseStatusCode, 200);
  assert.match(message.explanation, /^delivered: arrived /);
});
