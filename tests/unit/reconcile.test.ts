import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reconcile, type TReconciliation } from '../../lib/console/reconcile';

// The per-message badge: what the API says it sent beside what the receivers stored.

const msg = (status: string, attemptCount: number) => ({ id: 'msg_1', status, attemptCount });
const ok = { status: 'success' };
const failed = { status: 'failed' };
const rcpt = (responseStatus = 200, messageId = 'msg_1') => ({ messageId, responseStatus });

const cases: [string, ReturnType<typeof msg>, { status: string }[] | null, ReturnType<typeof rcpt>[], TReconciliation][] = [
  ['success + one receipt', msg('success', 1), [ok], [rcpt()], 'delivered-and-received'],
  ['attempts not loaded: status success + receipt', msg('success', 1), null, [rcpt()], 'delivered-and-received'],
  ['failed attempts, nothing received', msg('failed', 3), [failed, failed, failed], [], 'attempted-not-received'],
  ['attempts not loaded: attemptCount 2, nothing received', msg('pending', 2), null, [], 'attempted-not-received'],
  ['received but no attempt recorded', msg('sending', 0), [], [rcpt()], 'received-not-attempted'],
  ['a retry after the receiver answered 500, then 200', msg('success', 2), [failed, ok], [rcpt(500), rcpt(200)], 'delivered-and-received'],
  ['every arrival answered 500 (retries, not duplicates)', msg('pending', 3), [failed, failed, failed], [rcpt(500), rcpt(500), rcpt(500)], 'received-answered-error'],
  ['arrived twice for one attempt', msg('success', 1), [ok], [rcpt(), rcpt()], 'duplicate'],
  ['acknowledged twice (sent again after a 2xx)', msg('success', 2), [ok, ok], [rcpt(), rcpt()], 'duplicate'],
  ['attempts not loaded: more receipts than attempts', msg('success', 1), null, [rcpt(), rcpt()], 'duplicate'],
  ['nothing yet', msg('pending', 0), [], [], 'pending'],
  ['receipts of other messages do not count', msg('pending', 0), [], [rcpt(200, 'msg_2')], 'pending'],
];
for (const [name, message, attempts, receipts, expected] of cases) {
  test(`reconcile: ${name} → ${expected}`, () => {
    assert.equal(reconcile(message, attempts, receipts), expected);
  });
}
