import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMessage } from '../../lib/console/connect-api/check-message';
import { ZMessage } from '../../lib/console/connect-api/schemas';

// The streamed export's cheap check (check-message.ts): what it passes, ZMessage gives back unchanged;
// what it refuses goes to ZMessage (which normalises it or fails).

const attempt = { id: 'atmpt_1', url: 'http://127.0.0.1/x', timestamp: '2026-11-26T10:00:00.000Z', status: 'failed', responseStatusCode: 500, responseDurationMs: 12, triggerType: 'scheduled' };
const message = {
  id: 'msg_1',
  eventId: 'evt_1',
  eventType: 'grant.succeeded',
  timestamp: '2026-11-26T10:00:00.000Z',
  status: 'failed',
  nextAttempt: null,
  attemptCount: 2,
  tags: ['grant:1'],
  payload: { data: { email: 'a@example.org' } },
  attempts: [attempt, { ...attempt, id: 'atmpt_2' }],
  lastAttempt: { ...attempt, id: 'atmpt_2', response: 'down', responsePurged: null },
};

test('a well-formed streamed message passes as it is, and ZMessage agrees', () => {
  const variants = [message, { ...message, lastAttempt: null, attempts: [] }, { ...message, nextAttempt: '2026-11-26T11:00:00.000Z', lastAttempt: { ...attempt, response: '', responsePurged: { at: '2026-11-26T10:00:00.000Z', retention: '30d', size: 3 } } }];
  for (const m of variants) {
    assert.ok(isMessage(m));
    assert.deepEqual(ZMessage.parse(m), m);
  }
});

test('anything else is refused, so the full parse names what is wrong or normalises it', () => {
  const bad: unknown[] = [
    null,
    [],
    'msg_1',
    { ...message, id: 1 },
    { ...message, timestamp: '' },
    { ...message, attemptCount: 1.5 },
    { ...message, tags: [1] },
    { ...message, attempts: [{ ...attempt, responseStatusCode: '500' }] },
    { ...message, lastAttempt: { ...attempt, responsePurged: { at: 1 } } },
  ];
  for (const m of bad) {
    assert.equal(isMessage(m), false, JSON.stringify(m));
    assert.equal(ZMessage.safeParse(m).success, false, JSON.stringify(m));
  }
  // Absent nextAttempt: ZMessage gives null, so the check leaves it to the parse.
  const { nextAttempt: _n, ...noNext } = message;
  assert.equal(isMessage(noNext), false);
  assert.equal(ZMessage.parse(noNext).nextAttempt, null);
});
