import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoTime } from '../../lib/console/timeline/iso-time';

// isoTime gives what `new Date(t).toISOString()` gives, without the Date when t is already in that form.

test('the canonical form passes as it is; any other is converted as a Date converts it', () => {
  for (const t of ['2026-11-26T10:00:00.123Z', '2026-01-01T00:00:00.000Z', '2026-02-28T23:59:59.999Z']) assert.equal(isoTime(t), t);
  for (const t of [
    '2026-11-26T10:00:00Z',
    '2026-11-26T11:00:00.123+01:00',
    '2026-11-26 10:00:00.123456+00',
    '2028-02-29T00:00:00.000Z',
    '2026-11-30T00:00:00.000Z',
  ]) {
    assert.equal(isoTime(t), new Date(t).toISOString(), t);
  }
  assert.throws(() => isoTime('2026-13-01T00:00:00.000Z'), RangeError);
});
