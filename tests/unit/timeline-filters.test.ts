import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTimelineSearch } from '../../lib/console/timeline/timeline-filters';

// The timeline's URL filters, as the page and the JSON route both read them: forgiving (a bad
// value drops that filter), datetime-local values read as UTC, the same from either input shape.

test('keeps good filters and reads datetime-local values as UTC', () => {
  const got = parseTimelineSearch({ status: 'failed', eventType: 'grant.succeeded', after: '2026-11-23T07:00', before: '2026-11-24T08:30:15+02:00' });
  assert.deepEqual(got, { status: 'failed', eventType: 'grant.succeeded', after: '2026-11-23T07:00:00.000Z', before: '2026-11-24T06:30:15.000Z' });
});

test('drops what it cannot read instead of failing', () => {
  assert.deepEqual(parseTimelineSearch({ status: 'exploded', after: 'yesterday', before: '', eventType: ' ', pageToken: '' }), {});
  assert.deepEqual(parseTimelineSearch({ status: ['success', 'failed'] }), { status: 'success' }, 'the first of repeated values');
});

test('URLSearchParams and a page’s searchParams record give the same filters', () => {
  const qs = 'status=pending&eventType=grant.succeeded&after=2026-01-01T00:00&pageToken=abc&unknown=1';
  assert.deepEqual(parseTimelineSearch(new URLSearchParams(qs)), parseTimelineSearch(Object.fromEntries(new URLSearchParams(qs))));
  assert.equal(parseTimelineSearch(new URLSearchParams(qs)).pageToken, 'abc');
});

test('the JSON route is strict: a bad value is a 400 naming the parameter; good ones read as the page reads them', async () => {
  const { parseTimelineQuery } = await import('../../lib/console/timeline/timeline-filters');
  const { ApiError } = await import('../../lib/http/errors');
  const qs = 'status=failed&eventType=grant.succeeded&after=2026-11-23T07:00&pageToken=abc';
  assert.deepEqual(parseTimelineQuery(new URLSearchParams(qs)), parseTimelineSearch(new URLSearchParams(qs)));
  assert.deepEqual(parseTimelineQuery(new URLSearchParams('status=&after=')), {}, 'empty counts as absent');
  for (const [bad, field] of [
    ['status=exploded', 'status'],
    ['after=yesterday', 'after'],
    ['before=2026-13-45', 'before'],
  ]) {
    assert.throws(
      () => parseTimelineQuery(new URLSearchParams(bad)),
      (err: unknown) => {
        assert.ok(err instanceof ApiError && err.status === 400);
        assert.deepEqual(
          err.extra.errors?.map((e) => e.path),
          [field],
        );
        return true;
      },
      bad,
    );
  }
});
