import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signatureForensics } from '../../lib/console/receivers/signature-forensics';
import { secretFingerprint } from '../../lib/console/secret-fingerprint';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ type: 'grant.succeeded', data: { id: 'g1' } });

function signed(key: string, at: Date, payload = body): [string, string][] {
  const sig = new Webhook(key).sign('msg_1', at, payload);
  return [
    ['webhook-id', 'msg_1'],
    ['webhook-timestamp', String(Math.floor(at.getTime() / 1000))],
    ['webhook-signature', sig],
  ];
}

test('forensics: the previous receiver secret matches, skew and body hash are reported', () => {
  const [current, previous, webhook] = [secret(), secret(), secret()];
  const sentAt = new Date('2026-11-23T12:00:00Z');
  const f = signatureForensics({
    headers: signed(previous, sentAt),
    body: Buffer.from(body),
    receivedAt: new Date('2026-11-23T12:07:00Z'),
    receiverSecrets: [current, previous],
    webhookSecret: webhook,
    sentBody: body,
  });
  assert.equal(f.family, 'webhook');
  assert.equal(f.skewSeconds, 420);
  assert.deepEqual(
    f.receiverSecrets.map((s) => [s.label, s.matches]),
    [
      ['receiver, current', false],
      ['receiver, previous', true],
    ],
  );
  assert.equal(f.webhookSecret?.matches, false);
  assert.equal(f.webhookSecret?.fingerprint, secretFingerprint(webhook));
  assert.equal(f.bodyMatches, true);
});

test('forensics: a changed body does not hash-match what was sent', () => {
  const key = secret();
  const f = signatureForensics({
    headers: signed(key, new Date()),
    body: Buffer.from(`${body} `),
    receivedAt: new Date(),
    receiverSecrets: [key],
    webhookSecret: key,
    sentBody: body,
  });
  assert.equal(f.bodyMatches, false);
  assert.equal(f.receiverSecrets[0].matches, false, 'the signature covers the body');
});
