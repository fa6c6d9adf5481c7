import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, test } from 'node:test';
import { classifyAddress, guardedLookup, loopbackOnlyRefusal, refusalReason, RefusedAddressError, refusedLiteralHost } from '../../lib/net/ssrf';

// Classification only: nothing here opens a socket, and the lookups below are of IP literals and
// `localhost`, which never leave the machine.

/** Every special-purpose range the contract refuses, with its first and last address. */
const RANGES: [cidr: string, first: string, last: string][] = [
  // IANA IPv4 Special-Purpose Address Registry (and multicast / reserved space)
  ['0.0.0.0/8 (this network)', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8 (private)', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10 (CGNAT)', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8 (loopback)', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16 (link-local)', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12 (private)', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24 (IETF protocol assignments)', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24 (TEST-NET-1)', '192.0.2.0', '192.0.2.255'],
  ['192.88.99.0/24 (6to4 relay anycast)', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16 (private)', '192.168.0.0', '192.168.255.255'],
  ['198.18.0.0/15 (benchmarking)', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24 (TEST-NET-2)', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24 (TEST-NET-3)', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4 (multicast)', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4 (reserved)', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32 (limited broadcast)', '255.255.255.255', '255.255.255.255'],
  // IANA IPv6 Special-Purpose Address Registry (and the IPv6 Address Space registry)
  ['::/128 (unspecified)', '::', '0:0:0:0:0:0:0:0'],
  ['::1/128 (loopback)', '::1', '0:0:0:0:0:0:0:1'],
  ['::/96 (IPv4-compatible, deprecated)', '::0.0.0.2', '::255.255.255.255'],
  ['::ffff:0:0/96 (IPv4-mapped, private v4)', '::ffff:10.0.0.0', '::ffff:192.168.255.255'],
  ['::ffff:0:0:0/96 (IPv4-translated)', '::ffff:0:0:0', '::ffff:0:ffff:ffff'],
  ['64:ff9b::/96 (NAT64 well-known)', '64:ff9b::', '64:ff9b::ffff:ffff'],
  ['64:ff9b:1::/48 (NAT64 local-use)', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 (discard-only)', '100::', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 (dummy prefix)', '100:0:0:1::', '100::1:ffff:ffff:ffff:ffff'],
  ['2001::/23 (IETF protocol assignments)', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001::/32 (Teredo)', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:2::/48 (benchmarking)', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:10::/28 (ORCHID)', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:20::/28 (ORCHIDv2)', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 (documentation)', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2002::/16 (6to4)', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 (documentation)', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 (unique-local)', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10 (link-local)', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 (site-local, deprecated)', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 (multicast)', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['4000::/2 … (outside 2000::/3, reserved by IETF)', '4000::', '5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['::/8 rest (reserved by IETF)', '::1:0:0:0', '0:ff:ffff:ffff:ffff:ffff:ffff:ffff'],
];

describe('every special-purpose range is refused at both ends', () => {
  for (const [cidr, first, last] of RANGES) {
    test(cidr, () => {
      for (const address of [first, last]) {
        assert.notEqual(classifyAddress(address)?.range, 'unicast', `${address} classified as unicast`);
        assert.ok(refusalReason(address), `${address} allowed`);
      }
    });
  }
});

/** Spellings that carry 127.0.0.1, 10.0.0.1 or 169.254.169.254 inside an IPv6 address. */
const EMBEDDED: [spelling: string, range: RegExp][] = [
  // IPv4-mapped: the embedded IPv4 address is what is classified
  ['::ffff:127.0.0.1', /loopback/],
  ['::ffff:7f00:1', /loopback/],
  ['::FFFF:7F00:1', /loopback/],
  ['::ffff:7F00:0001', /loopback/],
  ['0:0:0:0:0:ffff:127.0.0.1', /loopback/],
  ['0000:0000:0000:0000:0000:ffff:7f00:0001', /loopback/],
  ['[::ffff:127.0.0.1]', /loopback/],
  ['::ffff:10.0.0.1', /private/],
  ['::ffff:a00:1', /private/],
  ['::ffff:169.254.169.254', /link-local/],
  ['::ffff:a9fe:a9fe', /link-local/],
  ['::ffff:0.0.0.0', /unspecified/],
  // IPv4-compatible (deprecated): refused whatever it carries
  ['::127.0.0.1', /IPv4-compatible/],
  ['::7f00:1', /IPv4-compatible/],
  ['::10.0.0.1', /IPv4-compatible/],
  ['::a9fe:a9fe', /IPv4-compatible/],
  ['0:0:0:0:0:0:169.254.169.254', /IPv4-compatible/],
  // IPv4-translated (SIIT)
  ['::ffff:0:127.0.0.1', /IPv4-translated/],
  ['::ffff:0:a00:1', /IPv4-translated/],
  // NAT64, well-known /96 and local-use /48
  ['64:ff9b::127.0.0.1', /NAT64/],
  ['64:ff9b::7f00:1', /NAT64/],
  ['64:FF9B::A00:1', /NAT64/],
  ['64:ff9b::169.254.169.254', /NAT64/],
  ['0064:ff9b:0000:0000:0000:0000:a9fe:a9fe', /NAT64/],
  ['64:ff9b:1::7f00:1', /NAT64/],
  ['64:ff9b:1:7f:0:1::', /NAT64/],
  // 6to4: 2002:AABB:CCDD::/48
  ['2002:7f00:1::1', /6to4/],
  ['2002:a00:1::', /6to4/],
  ['2002:A9FE:A9FE::1', /6to4/],
  ['2002:a9fe:a9fe:0:0:0:169.254.169.254', /6to4/],
  // Teredo: client address inverted in the last 32 bits
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /Teredo/],
  ['2001:0000:4136:e378:8000:63bf:f5ff:fffe', /Teredo/],
  ['2001::5601:5601', /Teredo/],
];

describe('IPv6 spellings embedding a private IPv4 address are refused', () => {
  for (const [spelling, reason] of EMBEDDED) {
    test(spelling, () => {
      const why = refusalReason(spelling.replace(/^\[|\]$/g, ''));
      assert.ok(why, `${spelling} allowed`);
      assert.match(why, reason);
    });
  }
});

test('the carried IPv4 address is named in the reason (never used to allow)', () => {
  assert.match(refusalReason('::ffff:7f00:1') ?? '', /IPv4-mapped 127\.0\.0\.1/);
  assert.match(refusalReason('::7f00:1') ?? '', /carrying 127\.0\.0\.1/);
  assert.match(refusalReason('64:ff9b::a9fe:a9fe') ?? '', /carrying 169\.254\.169\.254/);
  assert.match(refusalReason('2002:a00:1::1') ?? '', /carrying 10\.0\.0\.1/);
  assert.match(refusalReason('2001:0:4136:e378:8000:63bf:80ff:fffe') ?? '', /carrying 127\.0\.0\.1/);
});

test('NAT64, 6to4, Teredo and IPv4-compatible are refused even when they carry a public IPv4 address', () => {
  for (const address of [
    '64:ff9b::8.8.8.8',
    '64:ff9b::808:808',
    '64:ff9b:1::808:808',
    '2002:808:808::1',
    '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    '::8.8.8.8',
    '::101:101',
  ]) {
    assert.ok(refusalReason(address), `${address} allowed`);
  }
});

const GLOBAL = [
  '8.8.8.8',
  '1.1.1.1',
  '9.9.9.9',
  '2606:4700:4700::1111',
  '2606:4700:4700:0000:0000:0000:0000:1111',
  '2001:4860:4860::8888',
  '2001:4860:4860::8844',
  '2001:4860:4860:0:0:0:0:8888',
  '2001:4860:4860::8888%eth0',
  '::ffff:8.8.8.8',
  '::ffff:101:101',
];

describe('global unicast addresses are allowed', () => {
  for (const address of GLOBAL) {
    test(address, () => assert.equal(refusalReason(address), null));
  }
});

test('the neighbours of refused ranges are allowed', () => {
  for (const address of [
    '1.0.0.0',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.0.3.0',
    '192.88.98.255',
    '192.88.100.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2001:200::',
    '2003::',
    '2000::1',
  ]) {
    assert.equal(refusalReason(address), null, `${address} refused`);
  }
});

test('text that is not an IP address is refused; lax IPv4 forms are not read as addresses', () => {
  for (const text of ['', 'localhost', '127.1', '0x7f.0.0.1', '0177.0.0.1', '2130706433', '::ffff:1.2.3.4.5', '1.2.3.256', ':::1', 'fe80::1::2']) {
    assert.equal(classifyAddress(text), null, text);
    assert.match(refusalReason(text) ?? '', /not an IP address/, text);
  }
});

test('refusedLiteralHost: bracketed IPv6 and IPv4 literals, names left to the lookup', () => {
  assert.ok(refusedLiteralHost('[::1]') instanceof RefusedAddressError);
  assert.match(refusedLiteralHost('[::ffff:7f00:1]')?.message ?? '', /refused to deliver to \[::ffff:7f00:1\]: .*loopback/);
  assert.match(refusedLiteralHost('169.254.169.254')?.message ?? '', /link-local/);
  assert.equal(refusedLiteralHost('[2606:4700:4700::1111]'), null);
  assert.equal(refusedLiteralHost('8.8.8.8'), null);
  assert.equal(refusedLiteralHost('example.com'), null);
  // What the WHATWG URL parser makes of the hosts a webhook URL may spell (the form send-webhook sees)
  for (const url of [
    'http://[::ffff:127.0.0.1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://127.1/',
    'http://0x7f000001/',
    'http://[64:ff9b::10.0.0.1]/',
    'http://[::127.0.0.1]/',
  ]) {
    assert.ok(refusedLiteralHost(new URL(url).hostname), url);
  }
});

function lookup(hostname: string, all: boolean): Promise<{ err: Error | null; result: unknown }> {
  return new Promise((resolve) => {
    (guardedLookup as unknown as (h: string, o: object, cb: (err: Error | null, a?: unknown) => void) => void)(hostname, { all }, (err, a) =>
      resolve({ err, result: a }),
    );
  });
}

test('guardedLookup refuses loopback (local resolution only) and passes a public literal through', async () => {
  for (const host of ['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    const { err } = await lookup(host, false);
    assert.ok(err instanceof RefusedAddressError, host);
    assert.match(err.message, /loopback/);
  }
  const one = await lookup('8.8.8.8', false);
  assert.equal(one.err, null);
  assert.equal(one.result, '8.8.8.8');
  const all = await lookup('2606:4700:4700::1111', true);
  assert.equal(all.err, null);
  assert.deepEqual(
    (all.result as LookupAddress[]).map((a) => a.address),
    ['2606:4700:4700::1111'],
  );
});

test('loopbackOnlyRefusal (alert targets): loopback only when allowed, every other special range always refused', () => {
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    assert.equal(loopbackOnlyRefusal(address, true), null, address);
    assert.match(loopbackOnlyRefusal(address, false) ?? '', /loopback/, address);
  }
  for (const [address, why] of [
    ['10.1.2.3', /private/],
    ['192.168.0.1', /private/],
    ['169.254.169.254', /link-local/],
    ['100.64.0.1', /carrier-grade/],
    ['fd00::1', /unique-local/],
    ['0.0.0.0', /unspecified/],
  ] as const) {
    assert.match(loopbackOnlyRefusal(address, true) ?? '', why, address);
  }
  assert.equal(loopbackOnlyRefusal('8.8.8.8', true), null);
  assert.equal(loopbackOnlyRefusal('2606:4700:4700::1111', false), null);
});
