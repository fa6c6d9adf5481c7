import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operation } from '../../lib/console/connect-api/contract';

// The console's one lenient check of the service's answers, made from the committed OpenAPI
// document (lib/console/connect-api/contract.ts): unknown fields dropped, a nullable field left out
// read as null, ids and timestamps not held to their patterns, the wider of two shapes kept whole,
// and anything else that does not fit named by its field.

const WEBHOOK = {
  id: 'ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  url: 'https://receiver.example.org/hook',
  eventTypes: ['grant.succeeded'],
  description: 'main',
  disabled: false,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  disablesAt: null,
  paused: false,
  pausedAt: null,
  rateLimit: null,
  metadata: {},
  createdAt: '2026-11-22T10:15:30.123Z',
  updatedAt: '2026-11-22T10:15:30.123Z',
};
const ATTEMPT = {
  id: 'atmpt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  url: WEBHOOK.url,
  timestamp: '2026-11-22T10:15:31.000Z',
  status: 'failed',
  responseStatusCode: 500,
  responseDurationMs: 12,
  triggerType: 'scheduled',
};
const MESSAGE = {
  id: 'msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  eventId: 'evt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  eventType: 'grant.succeeded',
  timestamp: '2026-11-22T10:15:30.123Z',
  tags: [],
  status: 'failed',
  nextAttempt: null,
  attemptCount: 1,
  lastAttempt: ATTEMPT,
  retriesStopped: null,
  recoverRunId: null,
};

const check = (method: 'get' | 'post', path: string, body: unknown) => operation(method, path).check(body);

test('a field the document does not name is dropped, not refused', () => {
  const body = { ...WEBHOOK, addedLater: 'x' };
  assert.deepEqual(check('get', '/v1/webhooks/{id}', body), { ok: true });
  assert.deepEqual(body, WEBHOOK);
});

test('a nullable field a service leaves out reads as null; a remote timestamp without milliseconds and another id shape pass', () => {
  const { disabledReason: _r, disabledAt: _a, failingSince: _f, disablesAt: _d, paused: _p, pausedAt: _pa, rateLimit: _rl, ...older } = WEBHOOK;
  const body: Record<string, unknown> = { ...older, id: 'wh-42', createdAt: '2026-11-22T10:15:30Z' };
  assert.deepEqual(check('get', '/v1/webhooks/{id}', body), { ok: true });
  assert.deepEqual(
    [body.disabledReason, body.disabledAt, body.failingSince, body.disablesAt, body.pausedAt, body.rateLimit],
    [null, null, null, null, null, null],
  );
  // A service without pause: `paused` stays left out, which is how the console knows to hide Pause.
  assert.equal('paused' in body, false);
});

test('an answer that does not fit names the field', () => {
  const page = { results: [MESSAGE, { ...MESSAGE, status: 'lost' }] };
  assert.deepEqual(check('get', '/v1/webhooks/{id}/messages', page), { ok: false, where: 'results.1.status: must be equal to one of the allowed values' });
  const { url: _u, ...noUrl } = WEBHOOK;
  assert.deepEqual(check('get', '/v1/webhooks/{id}', noUrl), { ok: false, where: "body: must have required property 'url'" });
  assert.deepEqual(check('get', '/v1/webhooks/{id}', { ...WEBHOOK, disabled: 'no' }), { ok: false, where: 'disabled: must be boolean' });
  assert.equal(check('get', '/v1/webhooks/{id}', undefined).ok, false);
});

test('of two shapes the wider is tried first, so an attempt keeps its response', () => {
  const withResponse = { ...ATTEMPT, response: 'boom', responsePurged: null };
  const troubled = { results: [{ ...MESSAGE, webhookId: WEBHOOK.id, lastAttempt: withResponse }] };
  assert.deepEqual(check('get', '/v1/webhooks/messages', troubled), { ok: true });
  assert.equal(troubled.results[0].lastAttempt.response, 'boom');
});

test('operations are named, marked EXT and safe to retry as the document says', () => {
  const run = operation('get', '/v1/webhooks/{id}/replay-missing/{runId}');
  assert.deepEqual([run.label, run.ext, run.idempotent], ['get replay missing run', true, true]);
  assert.deepEqual([operation('post', '/v1/nonprofits').idempotent, operation('post', '/v1/nonprofits').ext], [true, false]);
  assert.equal(operation('post', '/v1/webhooks').idempotent, false);
  assert.equal(operation('post', '/v1/webhooks/{id}/retry-pending').idempotent, false);
  assert.throws(() => operation('get', '/v1/nothing'), /no operation get \/v1\/nothing/);
});
