import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStoreUnavailable, noteStoreAnswered, noteStoreError, setStoreAvailabilityLog, storeOutage, STORE_SETTLE_MS } from '@/lib/db/store-availability';
import { toProblem } from '@/lib/http/errors';

// Which errors mean "the database is away" (a 503 with Retry-After, one log line per outage) and
// which are the statement's own fault (a 400 or a 500 as before).

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('connection losses, shutdowns and a full disk are the store being unavailable', () => {
  for (const err of [
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is shutting down', '57P03'),
    withCode('connection failure', '08006'),
    withCode('could not extend file "base/1/2": No space left on device', '53100'),
    new Error('Connection terminated unexpectedly'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Failed query: insert into …', { cause: withCode('read ECONNRESET', 'ECONNRESET') }),
    new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], ''),
  ]) {
    assert.equal(isStoreUnavailable(err), true, err.message);
  }
});

test("a statement's own errors are not", () => {
  for (const err of [
    withCode('duplicate key value violates unique constraint', '23505'),
    withCode('value too long for type character varying(10)', '22001'),
    withCode('relation "x" does not exist', '42P01'),
    new Error('Cannot read properties of undefined'),
    'a string',
    null,
  ]) {
    assert.equal(isStoreUnavailable(err), false, String(err));
  }
});

test('an unavailable store is a 503 problem with Retry-After; a data exception stays a 400, a bug a 500', () => {
  const lines: string[] = [];
  setStoreAvailabilityLog((line) => lines.push(line));
  const down = toProblem(new Error('Failed query: select 1', { cause: withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED') }));
  assert.equal(down.status, 503);
  assert.equal(down.body.status, 503);
  assert.equal(down.body.title, 'Service Unavailable');
  assert.match(down.headers['retry-after'], /^\d+$/);
  assert.doesNotMatch(down.body.detail, /select|ECONNREFUSED|5432/, 'says nothing of the statement or the address');
  assert.equal(toProblem(withCode('value too long', '22001')).status, 400);
  assert.equal(toProblem(new Error('bug')).status, 500);
  noteStoreAnswered(Date.now() + STORE_SETTLE_MS + 1, Date.now() + STORE_SETTLE_MS + 1);
});

test('one log line when the store goes away, one when it is back, none per failed query', (t) => {
  // A clock that stands still: on the real one, a pause of 100 ms between two lines would turn "a
  // moment between two failures" into a recovery.
  t.mock.timers.enable({ apis: ['Date'], now: 1_800_000_000_000 });
  const lines: string[] = [];
  setStoreAvailabilityLog((line) => lines.push(line));
  noteStoreAnswered();
  for (let i = 0; i < 50; i++) noteStoreError(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'));
  noteStoreError(new Error('not an outage'));
  assert.ok(storeOutage(), 'the outage is known');
  // Answers to statements begun before the latest failure, or too soon after it, do not end it.
  noteStoreAnswered(Date.now() - 1000);
  noteStoreAnswered(Date.now() + 1, Date.now() + STORE_SETTLE_MS - 100);
  assert.ok(storeOutage(), 'a straggler or a moment between two failures is not a recovery');
  const later = Date.now() + STORE_SETTLE_MS + 1;
  for (let i = 0; i < 50; i++) noteStoreAnswered(later, later);
  assert.equal(storeOutage(), null);
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(lines[0], /^database unavailable \(ECONNREFUSED: connect ECONNREFUSED 127\.0\.0\.1:5432\)/);
  assert.match(lines[1], /^database available again after \d+\.\d s$/);
});
