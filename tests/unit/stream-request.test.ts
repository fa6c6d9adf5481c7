import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertAcceptsEventStream, streamAfter } from '@/lib/console/listen/stream-request';
import { ApiError } from '@/lib/http/errors';

// What a receipt stream request asks for: its cursor (?after=, else Last-Event-ID, else from now) and an Accept that takes the stream.

const q = (s: string) => new URLSearchParams(s);

test('the cursor: ?after= first, then Last-Event-ID, else none (from now)', () => {
  assert.equal(streamAfter(q('after=42'), '7'), 42);
  assert.equal(streamAfter(q('after=0'), null), 0);
  assert.equal(streamAfter(q(''), '7'), 7);
  assert.equal(streamAfter(q(''), null), null);
  assert.equal(streamAfter(q(''), ''), null);
});

test('a cursor that is not a receipt id is a 400 naming where it came from', () => {
  for (const [query, last, field] of [
    ['after=abc', null, 'after'],
    ['after=-1', null, 'after'],
    ['after=', null, 'after'],
    ['after=01', null, 'after'],
    ['after=1e3', null, 'after'],
    ['after=9999999999999999', null, 'after'],
    ['', 'x', 'Last-Event-ID'],
  ] as const) {
    assert.throws(
      () => streamAfter(q(query), last),
      (err: unknown) => err instanceof ApiError && err.status === 400 && err.message.startsWith(`${field}:`),
      `${query} ${last}`,
    );
  }
});

test('Accept must take text/event-stream, else 406', () => {
  for (const ok of ['text/event-stream', 'text/event-stream; charset=utf-8', 'application/json, text/event-stream', 'TEXT/EVENT-STREAM'])
    assert.doesNotThrow(() => assertAcceptsEventStream(ok), ok);
  for (const bad of [null, '', '*/*', 'text/html', 'application/json', 'text/event-streams']) {
    assert.throws(
      () => assertAcceptsEventStream(bad),
      (err: unknown) => err instanceof ApiError && err.status === 406,
      String(bad),
    );
  }
});
