import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { secretMismatches } from '../../lib/console/receivers/secret-mismatches';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;
const fp = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 8);

test('a webhook whose secret matches none of the receiver’s is named, by fingerprints only', () => {
  const [right, other, old] = [secret(), secret(), secret()];
  const webhooks = [
    { id: 'ep_ok', description: 'verifies', url: 'http://localhost:3000/ingest/a', secret: right },
    { id: 'ep_bad', description: '', url: 'http://localhost:3000/ingest/a', secret: other },
    { id: 'ep_unknown', description: 'secret not readable', url: 'http://localhost:3000/ingest/a', secret: null },
  ];
  const found = secretMismatches(webhooks, [right, old]);
  assert.deepEqual(
    found.map((m) => [m.webhookId, m.webhookFingerprint, m.receiverFingerprints]),
    [['ep_bad', fp(other), [fp(right), fp(old)]]],
  );
  assert.match(found[0].message, /^Webhook “http:\/\/localhost:3000\/ingest\/a” \(ep_bad\) signs with a secret this receiver does not hold/);
  assert.ok(found[0].message.includes(`${fp(other)}… vs ${fp(right)}… and ${fp(old)}…`), found[0].message);
  for (const s of [right, other, old]) assert.ok(!JSON.stringify(found).includes(s), 'no secret in the warning');
  assert.deepEqual(secretMismatches(webhooks, []), [], 'a receiver without a secret verifies nothing, so nothing fails');
});
