import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { Webhook } from 'standardwebhooks';
import { headerHasSignature, signatureHeader, signingKey, signV1 } from '../../lib/crypto/standard-webhooks';
import { verifySignature } from '../../lib/console/ingest/verify-signature';

// lib/crypto/standard-webhooks.ts signs with node:crypto; the standardwebhooks package is the
// reference it must agree with, byte for byte, for any secret, id, time and body.

const secretOf = (bytes: Uint8Array) => `whsec_${Buffer.from(bytes).toString('base64')}`;

test('signV1 gives the package’s signature for any secret, id, timestamp and body (UTF-8 or not)', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 1, maxLength: 64 }),
      fc.string({ minLength: 1, maxLength: 40 }),
      fc.integer({ min: 0, max: 4_000_000_000 }),
      fc.oneof(
        fc.string({ maxLength: 300 }).map((s) => Buffer.from(s)),
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      ),
      (keyBytes, id, seconds, body) => {
        const secret = secretOf(keyBytes);
        const theirs = new Webhook(secret).sign(id, new Date(seconds * 1000), body);
        const key = signingKey(secret);
        assert.ok(key);
        assert.equal(`v1,${signV1(key, id, seconds, body)}`, theirs);
        assert.equal(`v1,${signV1(key, id, seconds, body.toString('utf8'))}`, new Webhook(secret).sign(id, new Date(seconds * 1000), body.toString('utf8')));
      },
    ),
    { numRuns: 300 },
  );
});

test('a secret the package refuses has no key; one without the whsec_ prefix is read as the package reads it', () => {
  assert.equal(signingKey('whsec_'), null);
  assert.equal(signingKey('whsec_%%%not base64%%%'), null);
  const bare = randomBytes(24).toString('base64');
  assert.equal(`v1,${signV1(signingKey(bare)!, 'msg_1', 1_700_000_000, 'x')}`, new Webhook(bare).sign('msg_1', new Date(1_700_000_000_000), 'x'));
});

test('the delivery header signs with every active secret; the package verifies it with either', () => {
  const [a, b] = [secretOf(randomBytes(32)), secretOf(randomBytes(32))];
  const at = new Date();
  const body = JSON.stringify({ type: 'grant.succeeded', data: { id: 'g1', note: 'é ✓' } });
  const header = signatureHeader([a, b], 'msg_2', at, body);
  assert.equal(header.split(' ').length, 2);
  const headers = { 'webhook-id': 'msg_2', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': header };
  for (const secret of [a, b]) assert.doesNotThrow(() => new Webhook(secret).verify(body, headers));
  assert.throws(() => new Webhook(secretOf(randomBytes(32))).verify(body, headers));
  assert.equal(headerHasSignature(header, header.split(' ')[1].slice(3)), true);
  assert.equal(headerHasSignature(header, header.split(' ')[1].slice(4)), false);
  assert.equal(headerHasSignature('v2,abc v1', 'abc'), false);
});

test('verifySignature: a package-signed request is valid, stale outside ±300 s, invalid under another secret', () => {
  const secret = secretOf(randomBytes(32));
  const body = Buffer.from(JSON.stringify({ type: 'grant.succeeded', data: { id: 'g2' } }));
  const now = Math.floor(Date.now() / 1000);
  const request = (seconds: number, family = 'webhook') =>
    new Headers({
      [`${family}-id`]: 'msg_3',
      [`${family}-timestamp`]: String(seconds),
      [`${family}-signature`]: new Webhook(secret).sign('msg_3', new Date(seconds * 1000), body),
    });

  assert.equal(verifySignature(body, request(now), [secret], now).verdict, 'valid');
  assert.equal(
    verifySignature(body, request(now, 'svix'), [secretOf(randomBytes(32)), secret], now).reason,
    'Verified with the svix-* headers and secret 2 of 2.',
  );
  assert.equal(verifySignature(body, request(now - 300), [secret], now).verdict, 'valid');
  const stale = verifySignature(body, request(now - 301), [secret], now);
  assert.equal(stale.verdict, 'timestamp outside tolerance');
  assert.match(stale.reason, /301 s old/);
  assert.equal(verifySignature(body, request(now + 400), [secret], now).verdict, 'timestamp outside tolerance');
  const wrong = verifySignature(body, request(now), [secretOf(randomBytes(32)), 'whsec_'], now);
  assert.equal(wrong.verdict, 'invalid signature');
  assert.match(wrong.reason, /2 configured secrets.*1 secret is not valid base64/);
  assert.equal(verifySignature(Buffer.concat([body, Buffer.from(' ')]), request(now), [secret], now).verdict, 'invalid signature');
});
