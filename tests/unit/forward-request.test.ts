import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { forwardRequest } from '../../lib/console/forward/forward-request';

// What a forward sends (pure): verbatim keeps the stored headers and bytes less the hop-by-hop ones;
// resign keeps the id and replaces timestamp and signature in place, in both header families.

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const body = Buffer.from('{"a":1}');
const stored: [string, string][] = [
  ['Host', 'console.example.org'],
  ['Content-Length', '7'],
  ['X-First', '1'],
  ['webhook-id', 'msg_1'],
  ['webhook-timestamp', '1000'],
  ['webhook-signature', 'v1,old'],
  ['svix-id', 'msg_1'],
  ['svix-timestamp', '1000'],
  ['svix-signature', 'v1,old'],
  ['Transfer-Encoding', 'chunked'],
];

test('verbatim: the stored headers in order, less host, content-length and the other hop-by-hop headers', () => {
  const req = forwardRequest({ method: 'POST', headers: stored, body, messageId: 'msg_1' }, 'verbatim', { at: new Date() });
  assert.deepEqual(req.headers, stored.slice(2, 9));
  assert.equal(req.body, body);
});

test('resign: the same id and order, a new timestamp and a signature that verifies, in both families', () => {
  const at = new Date();
  const req = forwardRequest({ method: 'POST', headers: stored, body, messageId: 'msg_1' }, 'resign', { at, secret: SECRET });
  assert.deepEqual(
    req.headers.map(([n]) => n),
    stored.slice(2, 9).map(([n]) => n),
  );
  const h = Object.fromEntries(req.headers);
  assert.equal(h['webhook-timestamp'], String(Math.floor(at.getTime() / 1000)));
  for (const f of ['webhook', 'svix']) {
    new Webhook(SECRET).verify(body.toString(), {
      'webhook-id': h[`${f}-id`],
      'webhook-timestamp': h[`${f}-timestamp`],
      'webhook-signature': h[`${f}-signature`],
    });
  }
});

test('resign of a request without signature headers adds the webhook-* family; without an id or a secret it is refused', () => {
  const req = forwardRequest({ method: 'POST', headers: [['x', '1']], body, messageId: 'msg_9' }, 'resign', { at: new Date(), secret: SECRET });
  assert.deepEqual(
    req.headers.map(([n]) => n),
    ['x', 'webhook-id', 'webhook-timestamp', 'webhook-signature'],
  );
  assert.throws(() => forwardRequest({ method: 'POST', headers: [], body, messageId: null }, 'resign', { at: new Date(), secret: SECRET }), /webhook-id/);
  assert.throws(
    () => forwardRequest({ method: 'POST', headers: stored, body, messageId: 'msg_1' }, 'resign', { at: new Date(), secret: 'whsec_!!' }),
    /secret/,
  );
});
