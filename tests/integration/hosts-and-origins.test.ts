import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { canBindIpv6 } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (both checks happen before any store is reached).
// DNS rebinding and cross-site request forgery, over raw HTTP (fetch may not set Host or Origin):
// a name the deployment does not give gets a 421 on the console's pages, its routes, the API (the
// grant fast path of scripts/server.mjs too) and the token endpoint, while the receivers and the
// probes answer any name; a console request that would change something, sent from another
// origin (another port of localhost: the same site), gets a 403 and changes nothing, while the
// console's own origin under each of its names, and scripts (no Origin), go through.

type TRaw = { status: number; headers: http.IncomingHttpHeaders; text: string };

let app: TSharedApp;
let cookie: string;

function raw(method: string, path: string, headers: Record<string, string>, body?: string, connectTo = '127.0.0.1'): Promise<TRaw> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: connectTo,
        port: app.port,
        method,
        path,
        headers: { ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const json = { 'content-type': 'application/json' };
const FOREIGN = 'rebound.example';

before(async () => {
  app = await sharedApp();
  cookie = await staffCookie(app);
});
after(() => app?.stop());

describe('hosts', () => {
  test('a name the deployment does not give: 421 on pages, console routes, the API, its fast path and the token endpoint', async () => {
    const host = `${FOREIGN}:${app.port}`;
    const asked: [string, string, Record<string, string>, string?][] = [
      ['GET', '/login', { accept: 'text/html' }],
      ['GET', '/', { accept: 'text/html', cookie }],
      ['GET', '/api/session', { cookie }],
      ['POST', '/api/session', json, '{"email":"admin@example.org","password":"x"}'],
      ['GET', '/v1/funds', {}],
      ['POST', '/v1/grants', { ...json, 'x-service-api-key': 'key_x' }, '{"amount":100}'],
      ['POST', '/oauth/token', json, '{"grant_type":"client_credentials","client_id":"a","client_secret":"b"}'],
      ['GET', '/openapi.json', {}],
      ['GET', '/connect/cn_x', { accept: 'text/html' }],
    ];
    const answers = await Promise.all(asked.map(([method, path, headers, body]) => raw(method, path, { ...headers, host }, body)));
    // All at once, so a failure shows every answer.
    assert.deepEqual(
      answers.map((res, i) => `${asked[i][0]} ${asked[i][1]} ${res.status}`),
      asked.map(([method, path]) => `${method} ${path} 421`),
    );
    answers.forEach((res, i) => {
      const [method, path, headers] = asked[i];
      assert.match(res.text, /does not answer to the name .*rebound\.example.*PUBLIC_URL/, `${method} ${path} names the setting`);
      assert.ok(res.headers['x-request-id'], `${method} ${path} has a request id`);
      assert.match(String(res.headers['content-type']), headers.accept === 'text/html' ? /text\/html/ : /application\/problem\+json/, `${method} ${path}`);
    });
  });

  test('the names it does answer to: loopback names, IP addresses, any port; X-Forwarded-Host is ignored without TRUST_PROXY', async () => {
    const ipv6 = await canBindIpv6();
    for (const host of [
      'localhost',
      `localhost:${app.port}`,
      'LocalHost.',
      `app.localhost:${app.port}`,
      `127.0.0.1:${app.port}`,
      '127.0.0.1:1',
      '192.0.2.10',
      ...(ipv6 ? [`[::1]:${app.port}`] : []),
    ]) {
      const res = await raw('GET', '/api/session', { host, cookie });
      assert.equal(res.status, 200, `${host}: ${res.text.slice(0, 200)}`);
    }
    const res = await raw('GET', '/api/session', { host: `127.0.0.1:${app.port}`, 'x-forwarded-host': FOREIGN, cookie });
    assert.equal(res.status, 200, 'a client-chosen X-Forwarded-Host decides nothing without TRUST_PROXY');
  });

  test('the receivers and the probes answer any name', async () => {
    const receiver = await call(app, 'POST', '/api/receivers', { body: { name: 'reached under any name' }, headers: { cookie } });
    assert.equal(receiver.status, 201, receiver.text);
    const host = 'tunnel.example';
    const ingest = await raw('POST', `/ingest/${receiver.body.slug}`, { host, 'content-type': 'text/plain' }, 'hello');
    assert.equal(ingest.status, 200, ingest.text);
    assert.equal((await raw('GET', '/api/health', { host })).status, 200);
    assert.notEqual((await raw('GET', '/api/ready', { host })).status, 421);
    assert.notEqual((await raw('GET', '/metrics', { host })).status, 421);
  });
});

describe('origins', () => {
  let userId = '';
  let password = '';
  const signsIn = async () => (await call(app, 'POST', '/api/session', { body: { email: `csrf-${process.pid}@example.org`, password } })).status;
  const reset = (headers: Record<string, string>) => raw('POST', `/api/users/${userId}/password`, { host: `127.0.0.1:${app.port}`, cookie, ...headers });

  before(async () => {
    const added = await call(app, 'POST', '/api/users', { body: { email: `csrf-${process.pid}@example.org`, role: 'viewer' }, headers: { cookie } });
    assert.equal(added.status, 201, added.text);
    userId = added.body.user.id;
    password = added.body.password;
  });

  test('a change sent from another origin (another port of localhost, "null", a same-site fetch without Origin) is a 403 naming it, and changes nothing', async () => {
    const senders: Record<string, string>[] = [
      { origin: `http://127.0.0.1:${app.port + 1}` },
      { origin: `http://localhost:${app.port}` }, // another name than the Host the request was sent to
      { origin: 'null' },
      { 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site', accept: 'text/html' },
    ];
    for (const headers of senders) {
      const res = await reset(headers);
      assert.equal(res.status, 403, `${JSON.stringify(headers)}: ${res.status} ${res.text.slice(0, 200)}`);
      const detail = /json/.test(String(res.headers['content-type'])) ? JSON.parse(res.text).detail : res.text;
      if (headers.origin) assert.ok(detail.includes(JSON.stringify(headers.origin)), `the refusal names the origin: ${detail}`);
      else assert.match(detail, /Sec-Fetch-Site/);
      assert.match(detail, /CONSOLE_PUBLIC_URL/);
    }
    assert.equal(await signsIn(), 200, 'the one-time password still works: nothing was reset');
    const action = await raw(
      'POST',
      '/',
      {
        host: `127.0.0.1:${app.port}`,
        cookie,
        origin: `http://localhost:${app.port + 1}`,
        'next-action': '0'.repeat(42),
        'content-type': 'text/plain;charset=UTF-8',
      },
      '[]',
    );
    assert.equal(action.status, 403, `a server action from another origin: ${action.status}`);
  });

  test("the console's own origin under each of its names, and a script with no Origin, go through; the API takes any origin", async () => {
    const ipv6 = await canBindIpv6();
    for (const name of [`127.0.0.1:${app.port}`, `localhost:${app.port}`, ...(ipv6 ? [`[::1]:${app.port}`] : [])]) {
      const res = await reset({ host: name, origin: `http://${name}`, 'sec-fetch-site': 'same-origin' });
      assert.equal(res.status, 200, `${name}: ${res.text.slice(0, 200)}`);
      password = JSON.parse(res.text).password;
    }
    const script = await reset({});
    assert.equal(script.status, 200, script.text);
    password = JSON.parse(script.text).password;
    assert.equal(await signsIn(), 200);
    const tokenFromElsewhere = await raw(
      'POST',
      '/oauth/token',
      { ...json, host: `127.0.0.1:${app.port}`, origin: 'https://partner.example' },
      JSON.stringify({ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'wrong-secret-123', audience: 'https://api.giving-connect.test' }),
    );
    assert.equal(tokenFromElsewhere.status, 401, `bearer-token APIs take no cookie, so any origin: ${tokenFromElsewhere.text}`);
  });
});
