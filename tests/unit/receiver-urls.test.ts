import assert from 'node:assert/strict';
import { test } from 'node:test';
import { arrivalHost } from '../../lib/http/source-address';
import { hostMatchesUrl, normaliseUrl, parseHost, receiverForUrl, type TConsoleAddresses } from '../../lib/console/receivers/receiver-urls';

const receivers = [
  { id: 'r1', slug: 'acme' },
  { id: 'r2', slug: 'other' },
];
const base = 'http://Console.example:80';

const cases: [string, string | null][] = [
  ['http://console.example/ingest/acme', 'r1'],
  ['HTTP://CONSOLE.EXAMPLE:80/ingest/acme/', 'r1'],
  ['http://console.example/ingest/acme?x=1#frag', 'r1'],
  ['http://console.example/ingest/other', 'r2'],
  ['http://console.example:8080/ingest/acme', null],
  ['https://console.example/ingest/acme', null],
  ['http://console.example/ingest/%61cme', 'r1'],
  ['http://console.example/ingest/acme/more', null],
  ['http://console.example/ingest/unknown', null],
  ['http://elsewhere.example/ingest/acme', null],
  ['not a url', null],
];
for (const [url, expected] of cases) {
  test(`receiverForUrl(${url}) → ${expected}`, () => {
    assert.equal(receiverForUrl(url, receivers, base)?.id ?? null, expected);
  });
}

test('normaliseUrl drops default ports and trailing slashes, keeps other ports', () => {
  assert.equal(normaliseUrl('https://A.example:443/x/'), 'https://a.example/x');
  assert.equal(normaliseUrl('http://a.example:3000'), 'http://a.example:3000');
  assert.equal(normaliseUrl('ftp://a.example/'), null);
});

// What a console on port 3000 whose URL says localhost answers on.
const app: TConsoleAddresses = {
  hosts: ['localhost:3000', 'hooks.example.org'],
  port: '3000',
  localAddresses: ['10.1.2.3', 'fe80::1%eth0'],
  learned: new Map([['r2', ['lan-name.internal:3000']]]),
};
const addressCases: [string, string | null][] = [
  ['http://localhost:3000/ingest/acme', 'r1'],
  ['http://127.0.0.1:3000/ingest/acme', 'r1'],
  ['http://127.8.9.10:3000/ingest/acme', 'r1'],
  ['http://[::1]:3000/ingest/acme', 'r1'],
  ['http://[::ffff:127.0.0.1]:3000/ingest/acme', 'r1'],
  ['http://10.1.2.3:3000/ingest/acme', 'r1'],
  ['http://[fe80::1]:3000/ingest/acme', 'r1'],
  ['https://hooks.example.org/ingest/acme', 'r1'],
  ['http://hooks.example.org/ingest/acme', 'r1'],
  ['http://lan-name.internal:3000/ingest/other', 'r2'],
  ['http://lan-name.internal:3000/ingest/acme', null],
  ['http://127.0.0.1:3001/ingest/acme', null],
  ['http://10.1.2.4:3000/ingest/acme', null],
  ['http://evil.example:3000/ingest/acme', null],
  ['http://127.0.0.1:3000/other/acme', null],
];
for (const [url, expected] of addressCases) {
  test(`receiverForUrl(${url}) on a console at localhost:3000 → ${expected}`, () => {
    assert.equal(receiverForUrl(url, receivers, app)?.id ?? null, expected);
  });
}

test('hostMatchesUrl: an arrival’s host against a webhook URL', () => {
  assert.equal(hostMatchesUrl('localhost:3000', 'http://LOCALHOST:3000/ingest/a'), true);
  assert.equal(hostMatchesUrl('127.0.0.1:3000', 'http://localhost:3000/ingest/a'), false);
  assert.equal(hostMatchesUrl('[::1]:3000', 'http://[::1]:3000/ingest/a'), true);
  assert.equal(hostMatchesUrl('hooks.example.org', 'https://hooks.example.org/ingest/a'), true);
  assert.equal(hostMatchesUrl('hooks.example.org:443', 'https://hooks.example.org/ingest/a'), true);
  assert.equal(hostMatchesUrl('hooks.example.org:8443', 'https://hooks.example.org/ingest/a'), false);
  assert.equal(hostMatchesUrl('', 'http://localhost:3000/ingest/a'), false);
});

test('parseHost reads Host header forms', () => {
  assert.deepEqual(parseHost('[::1]:3000'), { hostname: '::1', port: '3000' });
  assert.deepEqual(parseHost('Example.ORG'), { hostname: 'example.org', port: null });
  assert.equal(parseHost('a b'), null);
});

test('arrivalHost: the Host header, or the proxy’s word only when it is trusted', () => {
  const h = new Headers({ host: 'LOCALHOST:3000', 'x-forwarded-host': 'hooks.example.org, inner', forwarded: 'for=1.2.3.4;host=fwd.example;proto=https' });
  assert.equal(arrivalHost(h, false), 'localhost:3000');
  assert.equal(arrivalHost(h, true), 'hooks.example.org');
  assert.equal(arrivalHost(new Headers({ host: 'a:1', forwarded: 'for=1.2.3.4;host="fwd.example"' }), true), 'fwd.example');
});
