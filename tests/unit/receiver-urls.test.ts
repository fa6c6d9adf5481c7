import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseUrl, receiverForUrl } from '../../lib/console/receiver-urls';

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
