import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foreignHost, isAcceptedHost, isOriginOfHost, namedHosts, splitHost } from '@/lib/http/allowed-hosts';
import { foreignOrigin, originsOf } from '@/lib/http/same-origin';

// The host check (DNS rebinding) and the origin check (CSRF) as pure functions: which names pass,
// what a trusted proxy's headers add, and which origins count as the console's own.

const names = namedHosts(['https://console.example.org', 'http://localhost:3000/'], ['Hooks.Example.org:8443', '[::1]']);
const hosts = { names, trustProxy: false };
const headers = (h: Record<string, string>) => (name: string) => h[name];

test('the names the settings give, read from URLs and host[:port] lists', () => {
  assert.deepEqual(names, ['console.example.org', 'localhost', 'hooks.example.org', '::1']);
  assert.deepEqual(splitHost('[::ffff:127.0.0.1]:80'), { name: '::ffff:7f00:1', port: '80' });
  assert.equal(splitHost('a b'), null);
  assert.equal(splitHost('[nope]'), null);
});

test('accepted: listed names on any port, loopback names, IP addresses; not: other names, unreadable values', () => {
  for (const ok of [
    'console.example.org',
    'CONSOLE.example.org:444',
    'hooks.example.org',
    'localhost:1',
    'a.localhost',
    '127.0.0.1:3000',
    '10.1.2.3',
    '[fd00::2]:3000',
    '[::1]',
  ])
    assert.equal(isAcceptedHost(ok, hosts), true, ok);
  for (const bad of ['evil.example', 'console.example.org.evil.example', 'localhost.evil.example', '127.0.0.1.nip.io', '1', '0x7f.1', 'a b', '', '[zz]'])
    assert.equal(isAcceptedHost(bad, hosts), false, bad);
});

test("a proxy's X-Forwarded-Host and Forwarded host= count only with TRUST_PROXY, and then each of them", () => {
  const sent = headers({ host: '127.0.0.1:3000', 'x-forwarded-host': 'localhost, evil.example' });
  assert.equal(foreignHost(sent, hosts), null, 'ignored without TRUST_PROXY');
  assert.equal(foreignHost(sent, { ...hosts, trustProxy: true }), 'evil.example', 'a name appended after an accepted one is still checked');
  assert.equal(foreignHost(headers({ host: '127.0.0.1', forwarded: 'for=1.2.3.4;host="evil.example"' }), { ...hosts, trustProxy: true }), 'evil.example');
  assert.equal(foreignHost(headers({ host: '127.0.0.1', 'x-forwarded-host': 'console.example.org' }), { ...hosts, trustProxy: true }), null);
  assert.equal(foreignHost(headers({ host: 'evil.example:3000' }), hosts), 'evil.example:3000');
  assert.equal(foreignHost(headers({}), hosts), null, 'no Host (HTTP/1.0): no browser, let through');
});

test("an Origin is the request's own when it names the same host and port (a missing port: the scheme's)", () => {
  assert.equal(isOriginOfHost(new URL('http://localhost:3000'), 'localhost:3000'), true);
  assert.equal(isOriginOfHost(new URL('https://console.example.org'), 'console.example.org'), true);
  assert.equal(isOriginOfHost(new URL('https://console.example.org'), 'console.example.org:443'), true);
  assert.equal(isOriginOfHost(new URL('http://[::1]:3000'), '[::1]:3000'), true);
  assert.equal(isOriginOfHost(new URL('http://localhost:3001'), 'localhost:3000'), false);
  assert.equal(isOriginOfHost(new URL('http://127.0.0.1:3000'), 'localhost:3000'), false);
});

test("changes come only from the console's origins; reads, and requests with no Origin nor Sec-Fetch-Site, go through", () => {
  const origins = { origins: originsOf(['https://console.example.org/', 'http://localhost:3000']), trustProxy: false };
  assert.deepEqual(origins.origins, ['https://console.example.org', 'http://localhost:3000']);
  const from = (h: Record<string, string>, method = 'POST') => foreignOrigin(method, headers(h), origins);
  assert.equal(from({ host: '127.0.0.1:3000', origin: 'https://console.example.org' }), null, 'the public origin, whatever the Host');
  assert.equal(from({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }), null, 'the origin of the Host it was sent to');
  assert.equal(from({ host: '127.0.0.1:3000', origin: 'http://127.0.0.1:8080' }), 'http://127.0.0.1:8080');
  assert.equal(from({ host: 'localhost:3000', origin: 'http://localhost:8080' }), 'http://localhost:8080');
  assert.equal(from({ host: 'localhost:3000', origin: 'null' }), 'null');
  assert.equal(from({ host: 'localhost:3000', origin: 'http://localhost:8080' }, 'GET'), null);
  assert.equal(from({ host: 'localhost:3000', origin: 'http://localhost:8080' }, 'OPTIONS'), null);
  assert.equal(from({ host: 'localhost:3000' }), null, 'a script');
  assert.equal(from({ host: 'localhost:3000', 'sec-fetch-site': 'same-origin' }), null);
  assert.equal(from({ host: 'localhost:3000', 'sec-fetch-site': 'none' }), null);
  assert.match(from({ host: 'localhost:3000', 'sec-fetch-site': 'same-site' }) ?? '', /same-site/);
  const proxied = { host: '127.0.0.1:3000', 'x-forwarded-host': 'hooks.example.org', origin: 'https://hooks.example.org' };
  assert.equal(from(proxied), 'https://hooks.example.org', "X-Forwarded-Host is the client's word without TRUST_PROXY");
  assert.equal(foreignOrigin('PATCH', headers(proxied), { ...origins, trustProxy: true }), null);
});
