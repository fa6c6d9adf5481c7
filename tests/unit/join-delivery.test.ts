import assert from 'node:assert/strict';
import { test } from 'node:test';
import { joinDelivery, receiversOfDelivery } from '../../lib/console/timeline/join-delivery';
import { receiptKey, type TReceiptSummary } from '../../lib/console/receivers/receipts-by-message';
import { secretFingerprint } from '../../lib/console/secret-fingerprint';

// The join of one message × one webhook: only the receipts at the receiver the attempts went to.

const consoleUrl = 'http://console.test';
const receivers = [
  { id: 'r1', slug: 'one', name: 'one', secrets: ['whsec_b25lb25lb25lb25lb25lb25lb25lb25lb25l'] },
  { id: 'r2', slug: 'two', name: 'two', secrets: [] },
];
const webhook = {
  id: 'ep_1',
  url: `${consoleUrl}/ingest/one`,
  description: '',
  eventTypes: ['grant.succeeded'],
  disabled: false,
  disabledReason: null,
  disabledAt: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};
const message = { id: 'msg_1', eventType: 'grant.succeeded', timestamp: '2026-11-23T12:00:00.000Z' };
const now = new Date('2026-11-23T12:10:00.000Z');
const attempt = (url: string, code = 200) => ({
  id: 'atmpt_1',
  timestamp: '2026-11-23T12:00:01.000Z',
  status: code < 300 ? 'success' : 'failed',
  responseStatusCode: code,
  responseDurationMs: 5,
  triggerType: 'scheduled',
  url,
});
const receipt = (id: number, receiverId: string, verdict = 'valid'): TReceiptSummary => ({
  id,
  receiverId,
  method: 'POST',
  path: '/',
  query: '',
  bodySize: 10,
  oversize: false,
  sourceIp: '127.0.0.1',
  receivedAt: new Date('2026-11-23T12:00:01.500Z'),
  messageId: 'msg_1',
  verdict: verdict as TReceiptSummary['verdict'],
  verdictReason: '',
  duplicate: false,
  responseStatus: 200,
  host: '',
});
const receipts = new Map([
  [receiptKey('msg_1', 'r1'), [receipt(1, 'r1')]],
  [receiptKey('msg_1', 'r2'), [receipt(2, 'r2', 'invalid signature')]],
]);
const delivered = { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(`${consoleUrl}/ingest/one/`)], complete: true };

test('joins only the receipts at the receiver of the attempt URL', () => {
  const j = joinDelivery({ message, webhook, webhookUrl: webhook.url, delivery: delivered, receivers, addresses: consoleUrl, receipts, now });
  assert.deepEqual(
    j.receipts.map((r) => r.id),
    [1],
  );
  assert.equal(j.receiver?.id, 'r1');
  assert.equal(j.reconciliation, 'delivered-and-received');
});

test('the attempt URL decides, not the webhook URL now (history survives a URL change)', () => {
  const j = joinDelivery({
    message,
    webhook,
    webhookUrl: `${consoleUrl}/ingest/one`,
    delivery: { ...delivered, attempts: [attempt(`${consoleUrl}/ingest/two`)] },
    receivers,
    addresses: consoleUrl,
    receipts,
    now,
  });
  assert.deepEqual(
    j.receipts.map((r) => r.id),
    [2],
  );
  assert.equal(j.reconciliation, 'received-bad-signature');
});

test('not queued for this webhook: a shared receiver’s arrivals are another webhook’s', () => {
  const j = joinDelivery({ message, webhook, webhookUrl: webhook.url, delivery: null, receivers, addresses: consoleUrl, receipts, now });
  assert.deepEqual(j.receipts, []);
  assert.equal(j.reconciliation, 'not-sent');
});

test('a URL outside the console is not observed', () => {
  const j = joinDelivery({
    message,
    webhook,
    webhookUrl: 'https://elsewhere.example/hook',
    delivery: { ...delivered, attempts: [attempt('https://elsewhere.example/hook')] },
    receivers,
    addresses: consoleUrl,
    receipts,
    now,
  });
  assert.equal(j.receiver, null);
  assert.equal(j.reconciliation, 'not-observed');
});

test('a failed signature is explained with the webhook’s and this receiver’s fingerprints', () => {
  const two = [{ ...receivers[1], secrets: ['whsec_dHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdvdHdv'] }];
  const j = joinDelivery({
    message,
    webhook,
    webhookUrl: webhook.url,
    delivery: { ...delivered, attempts: [attempt(`${consoleUrl}/ingest/two`)] },
    receivers: [receivers[0], ...two],
    addresses: consoleUrl,
    receipts,
    webhookFingerprint: 'ab12cd34',
    now,
  });
  assert.match(j.explanation, new RegExp(`different secret \\(fingerprints ab12cd34… vs ${secretFingerprint(two[0].secrets[0])}…\\)`));
});

test('receiversOfDelivery: attempt URLs first, else the webhook URL', () => {
  assert.deepEqual(
    receiversOfDelivery([], `${consoleUrl}/ingest/two`, receivers, consoleUrl).map((r) => r.id),
    ['r2'],
  );
  assert.deepEqual(
    receiversOfDelivery([`${consoleUrl}/ingest/one`, `${consoleUrl}/ingest/one?x`], `${consoleUrl}/ingest/two`, receivers, consoleUrl).map((r) => r.id),
    ['r1'],
  );
});

// Two webhooks reach one receiver: through localhost and through 127.0.0.1 (the same app).
const addresses = { hosts: ['localhost:3000'], port: '3000', localAddresses: [] };
const viaLocalhost = { ...webhook, id: 'ep_local', url: 'http://localhost:3000/ingest/one' };
const viaLoopback = { ...webhook, id: 'ep_loop', url: 'http://127.0.0.1:3000/ingest/one' };
const arrival = (id: number, host: string, over: Partial<TReceiptSummary> = {}): TReceiptSummary => ({ ...receipt(id, 'r1'), host, ...over });
const sent = (url: string, over: Partial<typeof delivered> = {}) => ({ ...delivered, attempts: [attempt(url)], ...over });
const both = new Map([[receiptKey('msg_1', 'r1'), [arrival(1, 'localhost:3000'), arrival(2, '127.0.0.1:3000')]]]);

test('a receiver reached through 127.0.0.1 while the console says localhost is observed', () => {
  const j = joinDelivery({
    message,
    webhook: viaLoopback,
    webhookUrl: viaLoopback.url,
    delivery: sent(viaLoopback.url),
    receivers,
    addresses,
    receipts: new Map([[receiptKey('msg_1', 'r1'), [arrival(7, '127.0.0.1:3000')]]]),
    now,
  });
  assert.equal(j.receiver?.id, 'r1');
  assert.equal(j.reconciliation, 'delivered-and-received');
});

test('two webhooks, one receiver, two addresses: each claims the arrival that came to its own URL', () => {
  const local = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: sent(viaLocalhost.url),
    receivers,
    addresses,
    receipts: both,
    siblings: [viaLoopback],
    now,
  });
  const loop = joinDelivery({
    message,
    webhook: viaLoopback,
    webhookUrl: viaLoopback.url,
    delivery: sent(viaLoopback.url),
    receivers,
    addresses,
    receipts: both,
    siblings: [viaLocalhost],
    now,
  });
  assert.deepEqual(
    local.receipts.map((r) => r.id),
    [1],
  );
  assert.deepEqual(
    loop.receipts.map((r) => r.id),
    [2],
  );
  assert.equal(local.reconciliation, 'delivered-and-received');
  assert.equal(loop.reconciliation, 'delivered-and-received');
  assert.equal(loop.otherArrivals, 1);
});

test('a sibling not subscribed to the event claims nothing (one webhook takes every arrival)', () => {
  const other = { ...viaLoopback, eventTypes: ['grant.failed'] };
  const j = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: sent(viaLocalhost.url),
    receivers,
    addresses,
    receipts: both,
    siblings: [other],
    now,
  });
  assert.deepEqual(
    j.receipts.map((r) => r.id),
    [1, 2],
  );
});

test('an arrival under an address no webhook uses (a proxy), or from before hosts were kept, is claimed by both', () => {
  const proxied = new Map([[receiptKey('msg_1', 'r1'), [arrival(1, 'hooks.example.org'), arrival(2, '')]]]);
  const j = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: { ...sent(viaLocalhost.url), attemptCount: 2 },
    receivers,
    addresses,
    receipts: proxied,
    siblings: [viaLoopback],
    now,
  });
  assert.deepEqual(
    j.receipts.map((r) => r.id),
    [1, 2],
  );
});

test('identical URLs: both show every arrival, say so, and the second copy is no duplicate', () => {
  const twin = { ...viaLocalhost, id: 'ep_twin' };
  const two = new Map([[receiptKey('msg_1', 'r1'), [arrival(1, 'localhost:3000'), arrival(2, 'localhost:3000', { duplicate: true })]]]);
  const j = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: sent(viaLocalhost.url),
    receivers,
    addresses,
    receipts: two,
    siblings: [twin],
    now,
  });
  assert.deepEqual(
    j.receipts.map((r) => [r.id, r.duplicate]),
    [
      [1, false],
      [2, false],
    ],
  );
  assert.equal(j.reconciliation, 'delivered-and-received');
  assert.deepEqual(j.sharedUrlWith, ['ep_twin']);
  assert.match(j.explanation, /ep_twin has this same URL/);
  const three = new Map([[receiptKey('msg_1', 'r1'), [...two.get(receiptKey('msg_1', 'r1'))!, arrival(3, 'localhost:3000')]]]);
  const again = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: sent(viaLocalhost.url),
    receivers,
    addresses,
    receipts: three,
    siblings: [twin],
    now,
  });
  assert.equal(again.reconciliation, 'duplicate', 'a third copy for two webhooks is one too many');
});

test('a resend after the secret was fixed is the first verified arrival: green, not a duplicate', () => {
  const fixed = new Map([
    [receiptKey('msg_1', 'r1'), [arrival(1, 'localhost:3000', { verdict: 'invalid signature' }), arrival(2, 'localhost:3000', { duplicate: false })]],
  ]);
  const j = joinDelivery({
    message,
    webhook: viaLocalhost,
    webhookUrl: viaLocalhost.url,
    delivery: { ...sent(viaLocalhost.url), attemptCount: 2 },
    receivers,
    addresses,
    receipts: fixed,
    now,
  });
  assert.deepEqual(
    j.receipts.map((r) => r.duplicate),
    [false, false],
  );
  assert.equal(j.reconciliation, 'delivered-and-received');
});
