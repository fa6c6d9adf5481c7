import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isDeliveryProblem,
  isProblem,
  RECONCILIATIONS,
  reconcile,
  suspiciousArrivals,
  type TReconcileInput,
  type TReconciliation,
} from '../../lib/console/timeline/reconcile';

// One state per (message, webhook): what the API says it sent to that webhook beside what arrived
// at that webhook's receiver. Every state appears in the table; the last test checks that.

const delivery = (status: string, attemptCount: number, codes?: number[]) => ({
  status,
  attemptCount,
  lastResponseStatusCode: codes?.length ? codes[codes.length - 1] : null,
  responseStatusCodes: codes ?? null,
});
const rcpt = (responseStatus = 200, verdict = 'valid', duplicate = false) => ({ verdict, responseStatus, duplicate });
const T0 = new Date('2026-11-24T10:00:00.000Z');
const T1 = new Date('2026-11-24T10:00:01.000Z');
const T2 = new Date('2026-11-24T10:00:02.000Z');
const LATER = new Date('2026-11-24T10:02:00.000Z');
const at = (d: TReconcileInput['delivery'], receipts: TReconcileInput['receipts'] = [], observed = true): TReconcileInput => ({
  delivery: d,
  observed,
  receipts,
});

const cases: [string, TReconcileInput, TReconciliation][] = [
  ['one attempt, 200, one valid receipt', at(delivery('success', 1, [200]), [rcpt()]), 'delivered-and-received'],
  [
    'only the last attempt known (message list), success',
    at({ status: 'success', attemptCount: 1, lastResponseStatusCode: 200 }, [rcpt()]),
    'delivered-and-received',
  ],
  ['a retry after the receiver answered 500, then 200', at(delivery('success', 2, [500, 200]), [rcpt(500), rcpt(200)]), 'delivered-and-received'],
  ['received while the attempt is still waiting for its answer', at(delivery('sending', 0), [rcpt()]), 'delivered-and-received'],
  ['arrived, signature invalid, answered 200: never green', at(delivery('success', 1, [200]), [rcpt(200, 'invalid signature')]), 'received-bad-signature'],
  [
    'arrived, receiver has no secret: not verified, so not green',
    at(delivery('success', 1, [200]), [rcpt(200, 'no secret configured')]),
    'received-bad-signature',
  ],
  [
    'receiver without a secret answered 500: the error is the story',
    at(delivery('pending', 1, [500]), [rcpt(500, 'no secret configured')]),
    'received-answered-error',
  ],
  ['arrived, timestamp outside tolerance', at(delivery('pending', 1, [200]), [rcpt(200, 'timestamp outside tolerance')]), 'received-bad-signature'],
  [
    'earlier receipt invalid, then resent after the secret was fixed: the first verified arrival',
    at(delivery('success', 2, [200, 200]), [rcpt(200, 'invalid signature'), rcpt(200, 'valid')]),
    'delivered-and-received',
  ],
  [
    'every arrival answered 500 (retries, not duplicates)',
    at(delivery('pending', 3, [500, 500, 500]), [rcpt(500), rcpt(500), rcpt(500)]),
    'received-answered-error',
  ],
  [
    'retries exhausted, answered 503',
    at(
      delivery('failed', 8, Array(8).fill(503)),
      Array.from({ length: 8 }, () => rcpt(503)),
    ),
    'received-answered-error',
  ],
  ['receiver answered 200 after the sender timed out', at(delivery('pending', 1, [0]), [rcpt(200)]), 'received-answered-error'],
  ['sent, the API got a 502 from something, nothing arrived', at(delivery('pending', 1, [502])), 'sent-not-received'],
  ['sent successfully, yet nothing stored at this receiver', at(delivery('success', 1, [200])), 'sent-not-received'],
  ['every attempt without a response', at(delivery('pending', 3, [0, 0, 0])), 'network-error'],
  ['only the last attempt known: no response', at({ status: 'failed', attemptCount: 8, lastResponseStatusCode: 0 }), 'network-error'],
  ['network error to an address outside the console', at(delivery('pending', 2, [0, 0]), [], false), 'network-error'],
  ['queued, no attempt yet', at(delivery('pending', 0)), 'not-sent-yet'],
  ['first attempt under way', at(delivery('sending', 0)), 'not-sent-yet'],
  ['arrived twice for one attempt', at(delivery('success', 1, [200]), [rcpt(), rcpt()]), 'duplicate'],
  ['acknowledged, then arrived again (flagged by the receiver)', at(delivery('success', 2, [200, 200]), [rcpt(), rcpt(200, 'valid', true)]), 'duplicate'],
  ["sent to a URL that is not one of this console's receivers", at(delivery('success', 1, [200]), [], false), 'not-observed'],
  ['failed with responses, receiver not observed', at(delivery('failed', 8, Array(8).fill(500)), [], false), 'not-observed'],
  [
    'the retry got a 2xx the API has not recorded yet (read before the outcome was written)',
    at(delivery('pending', 1, [500]), [rcpt(500), rcpt(200)]),
    'recording',
  ],
  ['first arrival acknowledged before the API recorded the attempt', at(delivery('pending', 0), [rcpt(200)]), 'recording'],
  [
    'the API says delivered, the 2xx arrival was stored after the API was read',
    {
      ...at(delivery('success', 2, [500, 200]), [
        { ...rcpt(500), receivedAt: T0 },
        { ...rcpt(200), receivedAt: T2 },
      ]),
      asOf: T1,
      now: T2,
    },
    'delivered-and-received',
  ],
  [
    'a 500 stored after the API was read is no duplicate of the retry the API counts',
    {
      ...at(delivery('pending', 1, [500]), [
        { ...rcpt(500), receivedAt: T0 },
        { ...rcpt(500), receivedAt: T2 },
      ]),
      asOf: T1,
      now: T2,
    },
    'received-answered-error',
  ],
  [
    'an unrecorded 2xx a minute old is a copy, not an outcome being written',
    {
      ...at(delivery('pending', 1, [500]), [
        { ...rcpt(500), receivedAt: T0 },
        { ...rcpt(200), receivedAt: T0 },
      ]),
      now: LATER,
    },
    'duplicate',
  ],
  [
    'two webhooks with this exact URL: two arrivals for one attempt each',
    { ...at(delivery('success', 1, [200]), [rcpt(), rcpt()]), copies: 2 },
    'delivered-and-received',
  ],
  ['not queued for this webhook', at(null), 'not-sent'],
  ["not queued, even though another webhook's receiver got it (its receipts are not passed)", at(null, []), 'not-sent'],
  ['queued, then dropped unattempted (webhook disabled meanwhile)', at(delivery('failed', 0)), 'not-sent'],
];

for (const [name, input, expected] of cases) {
  test(`reconcile: ${name} → ${expected}`, () => {
    assert.equal(reconcile(input), expected);
  });
}

test('the table covers every state', () => {
  const covered = new Set(cases.map(([, , s]) => s));
  assert.deepEqual(
    RECONCILIATIONS.filter((s) => !covered.has(s)),
    [],
  );
});

test('isProblem: failures, retries past the first, and what the receiver saw go wrong; not a delivered duplicate or a first retry', () => {
  const cases: [string, number, TReconciliation, boolean][] = [
    ['failed', 8, 'network-error', true],
    ['failed', 8, 'not-observed', true],
    ['failed', 0, 'not-sent', true],
    ['pending', 2, 'network-error', true],
    ['pending', 1, 'network-error', false],
    ['pending', 1, 'sent-not-received', false],
    ['pending', 1, 'received-answered-error', true],
    ['success', 1, 'received-bad-signature', true],
    ['success', 2, 'duplicate', false],
    ['success', 1, 'delivered-and-received', false],
    ['pending', 0, 'not-sent-yet', false],
  ];
  for (const [status, attemptCount, reconciliation, expected] of cases) {
    assert.equal(isProblem({ status, attemptCount, reconciliation }), expected, `${status}/${attemptCount}/${reconciliation}`);
  }
});

// Issue 50.2: the state is the service's verified delivery's; a copy whose signature did not verify
// beside it is a suspicious arrival, listed apart (suspiciousArrivals), never the state.
test('a verified delivery stays verified: a forged copy after it (or before, beyond the attempts) is suspicious', () => {
  const forged = rcpt(200, 'invalid signature');
  const cases: [string, TReconcileInput, TReconciliation, boolean[] | null][] = [
    ['a forged copy after the verified delivery', at(delivery('success', 1, [200]), [rcpt(), forged]), 'delivered-and-received', [false, true]],
    ['two forged copies, one before and one after', at(delivery('success', 1, [200]), [forged, rcpt(), forged]), 'delivered-and-received', [true, false, true]],
    [
      'a forged copy after a retry through a 500',
      at(delivery('success', 2, [500, 200]), [rcpt(500), rcpt(), rcpt(200, 'timestamp outside tolerance')]),
      'delivered-and-received',
      [false, false, true],
    ],
    [
      "the receiver held a wrong secret, then a resend verified: the service's own",
      at(delivery('success', 2, [200, 200]), [forged, rcpt()]),
      'delivered-and-received',
      null,
    ],
    ['no verified arrival: the failed check is the story', at(delivery('success', 1, [200]), [forged]), 'received-bad-signature', null],
    [
      'a receiver without a secret checked nothing: not suspicious',
      at(delivery('success', 1, [200]), [rcpt(), rcpt(200, 'no secret configured')]),
      'duplicate',
      null,
    ],
  ];
  for (const [name, input, state, flags] of cases) {
    assert.equal(reconcile(input), state, name);
    assert.deepEqual(suspiciousArrivals(input.receipts, input.delivery!.attemptCount), flags, name);
  }
  assert.equal(
    isProblem({ status: 'success', attemptCount: 1, reconciliation: 'delivered-and-received', suspiciousArrivals: 1 }),
    true,
    'a Problems row of its own kind',
  );
  assert.equal(isDeliveryProblem({ status: 'success', attemptCount: 1, reconciliation: 'delivered-and-received' }), false);
});
