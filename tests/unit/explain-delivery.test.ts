import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainDelivery, relative, clock, type TExplainInput } from '../../lib/console/timeline/explain-delivery';
import { storySentence } from '../../lib/console/recover/story-words';
import { grantStatusNote } from '../../lib/console/investigation/grant-status';

// The sentence support reads per (message, webhook): derived from recorded facts only.

const now = new Date('2026-11-23T12:10:00.000Z');
const message = { eventType: 'grant.succeeded', timestamp: '2026-11-23T12:00:00.000Z' };
const webhook = { eventTypes: ['grant.succeeded'], createdAt: '2026-11-20T09:00:00.000Z', disabled: false, disabledReason: null, disabledAt: null };
const attempt = (code: number, response = '', timestamp = '2026-11-23T12:00:01.000Z') => ({ timestamp, responseStatusCode: code, response });
const receipt = (responseStatus = 200, verdict = 'valid', verdictReason = '') => ({
  receivedAt: '2026-11-23T12:01:03.000Z',
  verdict,
  verdictReason,
  responseStatus,
});
const base: TExplainInput = { state: 'delivered-and-received', now, message, webhook, delivery: null, receiverName: 'acme', receipts: [] };
const explain = (patch: Partial<TExplainInput>) => explainDelivery({ ...base, ...patch });

const cases: [string, Partial<TExplainInput>, RegExp][] = [
  [
    'not subscribed',
    { state: 'not-sent', webhook: { ...webhook, eventTypes: ['webhook.disabled'] } },
    /^not sent: this webhook is not subscribed to grant\.succeeded$/,
  ],
  [
    'created after the grant',
    { state: 'not-sent', webhook: { ...webhook, createdAt: '2026-11-23T12:05:00.000Z' } },
    /^not sent: the webhook was created at 12:05:00, after this message \(12:00:00\)$/,
  ],
  [
    'disabled on a 410 before the grant',
    { state: 'not-sent', webhook: { ...webhook, disabled: true, disabledAt: '2026-11-23T11:04:00.000Z', disabledReason: 'the endpoint answered 410 Gone' } },
    /^not sent: the webhook was disabled at 11:04:00 \(the endpoint answered 410 Gone\)$/,
  ],
  [
    'queued, then dropped because the webhook was disabled',
    {
      state: 'not-sent',
      delivery: { status: 'failed', attemptCount: 0, nextAttempt: null, attempts: [] },
      webhook: { ...webhook, disabled: true, disabledAt: '2026-11-23T12:00:00.500Z', disabledReason: 'disabled through the API' },
    },
    /^not sent: queued, but the webhook was disabled at 12:00:00 \(disabled through the API\) before the first attempt$/,
  ],
  [
    'queued, due in 3 min',
    { state: 'not-sent-yet', delivery: { status: 'pending', attemptCount: 0, nextAttempt: '2026-11-23T12:13:00.000Z', attempts: [] } },
    /^queued: attempt 1 of 8 in 3 min$/,
  ],
  [
    'retrying after 500s',
    {
      state: 'received-answered-error',
      receipts: [receipt(500), receipt(500), receipt(500)],
      delivery: { status: 'pending', attemptCount: 3, nextAttempt: '2026-11-23T12:13:00.000Z', attempts: [attempt(500, 'database down')] },
    },
    /^sent 3 times; the receiver answered 500 'database down'; next attempt \(4 of 8\) in 3 min$/,
  ],
  [
    'never reached',
    { state: 'network-error', delivery: { status: 'failed', attemptCount: 8, nextAttempt: null, attempts: [attempt(0, 'connect ECONNREFUSED 127.0.0.1:9')] } },
    /^sent 8 times; never reached the receiver: no response \(connect ECONNREFUSED 127\.0\.0\.1:9\); no retries left$/,
  ],
  [
    'retries stopped by a donor erasure',
    {
      state: 'received-answered-error',
      receipts: [receipt(500), receipt(500)],
      delivery: {
        status: 'failed',
        attemptCount: 2,
        nextAttempt: null,
        attempts: [{ ...attempt(500, ''), responseGone: { kind: 'erased' } }],
        retriesStopped: { reason: 'donor_erased', at: '2026-11-23T12:05:00.000Z' },
      },
    },
    /^sent twice; the receiver answered 500 \(its body erased\); retries stopped: donor data erased on 2026-11-23$/,
  ],
  [
    'different secret',
    {
      state: 'received-bad-signature',
      receipts: [receipt(200, 'invalid signature')],
      fingerprints: { webhook: 'ab12cd34', receiver: ['9f3c0e11'] },
      delivery: { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(200)] },
    },
    /^arrived 12:01:03 but the signature did not verify: the receiver holds a different secret \(fingerprints ab12cd34… vs 9f3c0e11…\)$/,
  ],
  [
    'same secret, still invalid',
    { state: 'received-bad-signature', receipts: [receipt(200, 'invalid signature')], fingerprints: { webhook: 'ab12cd34', receiver: ['ab12cd34'] } },
    /the receiver holds the webhook's secret \(ab12cd34…\) now, so a secret changed after this arrival or the body was altered on the way: resend to check$/,
  ],
  [
    'receiver without a secret',
    { state: 'received-bad-signature', receipts: [receipt(200, 'no secret configured')] },
    /^arrived 12:01:03 but was not verified: the receiver has no signing secret$/,
  ],
  [
    'sent but not received',
    {
      state: 'sent-not-received',
      delivery: { status: 'pending', attemptCount: 1, nextAttempt: '2026-11-23T12:10:30.000Z', attempts: [attempt(502, 'Bad Gateway')] },
    },
    /^sent once, last answered 502 'Bad Gateway'; nothing with this message id arrived at receiver “acme”.*next attempt \(2 of 8\) in 30 s$/,
  ],
  [
    'not observed',
    { state: 'not-observed', receiverName: null, delivery: { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(200)] } },
    /^sent once, last answered 200; the URL is not a receiver of this console/,
  ],
  [
    'duplicate arrival',
    { state: 'duplicate', receipts: [receipt(), receipt()], delivery: { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(200)] } },
    /^arrived twice at receiver “acme” for one attempt/,
  ],
  [
    'waiting for a retry when a 410 disabled the webhook',
    {
      state: 'received-answered-error',
      receipts: [receipt(500), receipt(500)],
      webhook: { ...webhook, disabled: true, disabledAt: '2026-11-23T12:04:00.000Z', disabledReason: 'the endpoint answered 410 Gone' },
      delivery: { status: 'pending', attemptCount: 2, nextAttempt: '2026-11-23T12:15:00.000Z', attempts: [attempt(500, 'database down')] },
    },
    /^sent twice; the receiver answered 500 'database down'; no further attempts: the webhook was disabled at 12:04:00 \(the endpoint answered 410 Gone\), so this message ends failed when its retry falls due in 5 min unless the webhook is enabled first$/,
  ],
  [
    'queued for a disabled webhook',
    {
      state: 'not-sent-yet',
      webhook: { ...webhook, disabled: true, disabledAt: '2026-11-23T12:04:00.000Z', disabledReason: 'the endpoint answered 410 Gone' },
      delivery: { status: 'pending', attemptCount: 0, nextAttempt: '2026-11-23T12:13:00.000Z', attempts: [] },
    },
    /^queued, but not to be sent: the webhook was disabled at 12:04:00 \(the endpoint answered 410 Gone\); the message ends failed when it falls due unless the webhook is enabled first$/,
  ],
  [
    'delivered after retries',
    {
      state: 'delivered-and-received',
      receipts: [receipt(500), receipt(200)],
      delivery: { status: 'success', attemptCount: 2, nextAttempt: null, attempts: [attempt(200)] },
    },
    /^delivered after 1 failed attempt: arrived 12:01:03 at receiver “acme”, signature valid, answered 200$/,
  ],
];

for (const [name, patch, expected] of cases) {
  test(`explain: ${name}`, () => {
    assert.match(explain(patch), expected);
  });
}

test('relative and clock times', () => {
  assert.equal(relative('2026-11-23T12:10:00.500Z', now), 'now');
  assert.equal(relative('2026-11-23T12:09:30.000Z', now), 'now');
  assert.equal(relative('2026-11-23T12:05:00.000Z', now), 'overdue by 5 min');
  assert.equal(relative('2026-11-23T12:10:40.000Z', now), 'in 40 s');
  assert.equal(relative('2026-11-23T17:10:00.000Z', now), 'in 5 h');
  assert.equal(clock('2026-11-22T23:59:59.000Z', now), 'Nov 22 23:59:59');
});

test('a disabled webhook never promises a next attempt', () => {
  const disabled = { ...webhook, disabled: true, disabledAt: '2026-11-23T12:04:00.000Z', disabledReason: 'the endpoint answered 410 Gone' };
  for (const state of ['network-error', 'sent-not-received', 'received-answered-error', 'received-bad-signature', 'not-observed'] as const) {
    const text = explain({
      state,
      webhook: disabled,
      receipts: [receipt(500)],
      delivery: { status: 'pending', attemptCount: 2, nextAttempt: '2026-11-23T12:15:00.000Z', attempts: [attempt(500)] },
    });
    assert.doesNotMatch(text, /next attempt/, `${state}: ${text}`);
    assert.match(text, /no further attempts: the webhook was disabled at 12:04:00/, state);
  }
});

test("a paused webhook's waiting message says who paused it and since when, distinct from disabled", () => {
  const paused = { ...webhook, paused: true, pausedAt: '2026-11-23T11:02:00.000Z', pausedBy: 'ops@example.org' };
  assert.equal(
    explain({ state: 'not-sent-yet', webhook: paused, delivery: { status: 'pending', attemptCount: 0, nextAttempt: null, attempts: [] } }),
    'waiting: webhook paused since 11:02:00 by ops@example.org; attempt 1 of 8 goes out when it is resumed',
  );
  const retried = explain({
    state: 'network-error',
    webhook: { ...paused, pausedBy: null },
    delivery: { status: 'pending', attemptCount: 1, nextAttempt: null, attempts: [attempt(0, 'ECONNREFUSED')] },
  });
  assert.match(retried, /; waiting: webhook paused since 11:02:00 through the API; the next attempt goes out when it is resumed$/);
  assert.doesNotMatch(retried, /disabled/);
  // Paused and disabled: disabled says it (a disabled webhook's messages end failed, paused or not).
  const both = explain({
    state: 'not-sent-yet',
    webhook: { ...paused, disabled: true, disabledAt: '2026-11-23T11:04:00.000Z', disabledReason: 'disabled through the API' },
    delivery: { status: 'pending', attemptCount: 0, nextAttempt: null, attempts: [] },
  });
  assert.match(both, /^queued, but not to be sent: the webhook was disabled at 11:04:00/);
});

test('for files: absolute ISO instants, nothing relative to when it was read', () => {
  const absolute = (patch: Partial<TExplainInput>) => explain({ ...patch, times: 'absolute' });
  const relativeWords = /\bin \d+ (s|min|h|d)\b|(of 8|attempt) now\b|overdue|\b\d\d:\d\d:\d\d\b(?!\.)/;
  const retrying = absolute({
    state: 'received-answered-error',
    receipts: [receipt(500)],
    delivery: { status: 'pending', attemptCount: 3, nextAttempt: '2026-11-23T12:13:00.000Z', attempts: [attempt(500, 'database down')] },
  });
  assert.equal(retrying, "sent 3 times; the receiver answered 500 'database down'; next attempt (4 of 8) at 2026-11-23T12:13:00.000Z");
  assert.equal(
    absolute({ state: 'not-sent-yet', delivery: { status: 'pending', attemptCount: 0, nextAttempt: '2026-11-23T12:09:00.000Z', attempts: [] } }),
    'queued: attempt 1 of 8 at 2026-11-23T12:09:00.000Z',
  );
  assert.equal(
    absolute({
      state: 'delivered-and-received',
      receipts: [receipt(200)],
      delivery: { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(200)] },
    }),
    'delivered: arrived 2026-11-23T12:01:03.000Z at receiver “acme”, signature valid, answered 200',
  );
  for (const [name, patch] of cases) {
    const text = absolute(patch);
    assert.doesNotMatch(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'ISO'), relativeWords, `${name}: ${text}`);
  }
});

test('an answer retention purged is said to be purged, not guessed at', () => {
  const gone = { kind: 'purged', at: '2026-11-23T12:05:00.000Z', sha256: null, note: 'response body purged on 2026-11-23 (retention 5s)' };
  const failed = (code: number) => ({ status: 'failed', attemptCount: 8, nextAttempt: null, attempts: [{ ...attempt(code), responseGone: gone }] });
  assert.match(explain({ state: 'received-answered-error', receipts: [receipt(500)], delivery: failed(500) }), /the receiver answered 500 \(its body purged\)/);
  assert.match(explain({ state: 'network-error', delivery: failed(0) }), /no response \(the error was purged\)/);
  assert.doesNotMatch(explain({ state: 'network-error', delivery: failed(0) }), /network error or timeout/);
});

test('a suspicious arrival is said apart from the verified delivery, with what to do instead of a resend', () => {
  const delivered = { status: 'success', attemptCount: 1, nextAttempt: null, attempts: [attempt(200)] };
  const forged = { ...receipt(200, 'invalid signature', 'no signature matched'), receivedAt: '2026-11-23T12:05:00.000Z', suspicious: true };
  const s = explain({ delivery: delivered, receipts: [receipt(), forged] });
  assert.equal(
    s,
    'delivered: arrived 12:01:03 at receiver “acme”, signature valid, answered 200; a suspicious arrival at 12:05:00 (no signature matched): a copy with this message id whose signature did not verify, not from the service — do not resend: the delivery verified; check who else posts to this receiver and rotate its URL and signing secret',
  );
  assert.doesNotMatch(s, /resend to check/);
});

test("the outage's story of a delivery, and a grant's status explained beside its events (issue 50.4)", () => {
  const now = new Date('2026-11-29T10:00:00.000Z');
  const outage = { disabledAt: '2026-11-29T05:10:03.000Z', enabledAt: '2026-11-29T09:42:11.000Z' };
  const run = {
    id: 'rcvr_1',
    kind: 'replay-missing' as const,
    webhookId: 'ep_1',
    since: outage.disabledAt,
    until: outage.enabledAt,
    status: 'done' as const,
    messages: 3,
    remaining: 0,
    succeeded: 3,
    failed: 0,
    createdAt: '2026-11-29T09:44:30.000Z',
    finishedAt: null,
    clientId: 'cl_ops',
  };
  const delivered = { status: 'success', attemptCount: 1, recoverRunId: 'rcvr_1' };
  assert.equal(
    storySentence({ outage, run, who: { actor: 'ops@example.org' }, delivery: delivered, now }),
    'made while the webhook was disabled (05:10–09:42 UTC); replayed by Recover all (ops@example.org) at 09:44 UTC',
  );
  assert.equal(
    storySentence({ outage, run, who: null, delivery: delivered, now }),
    'made while the webhook was disabled (05:10–09:42 UTC); replayed by replay-missing (API client cl_ops) at 09:44 UTC',
  );
  assert.equal(
    storySentence({ outage: null, run: { ...run, kind: 'recover' }, who: { actor: 'ops@example.org' }, delivery: delivered, now }),
    're-sent after it failed by Recover all (ops@example.org) at 09:44 UTC',
  );
  assert.equal(
    storySentence({ outage, run: null, who: null, delivery: null, now }),
    'made while the webhook was disabled (05:10–09:42 UTC); never sent to it: "Recover all" on the webhook’s page replays it',
  );
  assert.equal(storySentence({ outage: null, run: null, who: null, delivery: { status: 'success', attemptCount: 1 }, now }), null);
  assert.match(
    grantStatusNote('Initiated', 'api'),
    /^Initiated — the service’s status for this grant now: the grant was made \(that is what its grant\.succeeded event says\)/,
  );
  assert.match(grantStatusNote('Canceled', 'api'), /no event announces the cancelation/);
});
