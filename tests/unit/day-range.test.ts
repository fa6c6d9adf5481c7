import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dateIn, dayRange, isDate, localTime, readableDays } from '../../lib/console/reconciliation/day-range';
import { dueForRepeat } from '../../lib/console/alerts/evaluate-rules';

test('a day in a time zone is local midnight to local midnight, 23 or 25 hours across a DST change', () => {
  assert.deepEqual(dayRange('2026-11-27', 'UTC'), { after: '2026-11-27T00:00:00.000Z', before: '2026-11-28T00:00:00.000Z' });
  assert.deepEqual(dayRange('2026-03-08', 'America/New_York'), { after: '2026-03-08T05:00:00.000Z', before: '2026-03-09T04:00:00.000Z' });
  assert.deepEqual(dayRange('2026-11-01', 'America/New_York'), { after: '2026-11-01T04:00:00.000Z', before: '2026-11-02T05:00:00.000Z' });
  assert.deepEqual(dayRange('2026-06-15', 'Asia/Kolkata'), { after: '2026-06-14T18:30:00.000Z', before: '2026-06-15T18:30:00.000Z' });
  assert.deepEqual(dayRange('2026-12-31', 'Pacific/Auckland'), { after: '2026-12-30T11:00:00.000Z', before: '2026-12-31T11:00:00.000Z' });
  assert.equal(dateIn('Pacific/Auckland', new Date('2026-12-30T12:00:00Z')), '2026-12-31');
  assert.equal(dateIn('America/Los_Angeles', new Date('2026-12-30T05:00:00Z')), '2026-12-29');
  assert.equal(isDate('2026-02-28'), true);
  for (const bad of ['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', 'today', '1969-12-31']) assert.equal(isDate(bad), false, bad);
});

test('a firing alert is due a reminder only when nobody acknowledged it, it is not snoozed, and ALERT_REPEAT has passed', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const h = (n: number) => new Date(now.getTime() - n * 3600_000);
  const base = { acknowledgedAt: null, snoozedUntil: null, notifiedAt: h(5), firedAt: h(9) };
  const repeat = 4 * 3600_000;
  assert.equal(dueForRepeat(base, now, repeat), true);
  assert.equal(dueForRepeat({ ...base, notifiedAt: h(3) }, now, repeat), false, 'notified 3 h ago');
  assert.equal(dueForRepeat({ ...base, notifiedAt: null }, now, repeat), true, 'from its firing when never notified');
  assert.equal(dueForRepeat({ ...base, acknowledgedAt: h(1) }, now, repeat), false);
  assert.equal(dueForRepeat({ ...base, snoozedUntil: h(-1) }, now, repeat), false, 'snoozed for another hour');
  assert.equal(dueForRepeat({ ...base, snoozedUntil: h(1) }, now, repeat), true, 'the snooze has ended');
});

test('the days the service can read whole: its instants run from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z', () => {
  assert.deepEqual(readableDays('UTC'), { first: '1970-01-01', last: '9999-12-30' });
  assert.deepEqual(readableDays('America/New_York'), { first: '1970-01-01', last: '9999-12-30' });
  assert.deepEqual(readableDays('Asia/Tokyo'), { first: '1970-01-02', last: '9999-12-31' }, 'east of UTC: 1970-01-01 starts in 1969');
});

// Issue 50.3: the reconciliation's grant_created_local, the wall clock in CONSOLE_TIME_ZONE.
test('localTime: the wall clock in the zone, midnight as 00 and across a DST change', () => {
  assert.equal(localTime('2026-11-29T04:59:59.999Z', 'America/New_York'), '2026-11-28 23:59:59');
  assert.equal(localTime('2026-01-01T05:00:00Z', 'America/New_York'), '2026-01-01 00:00:00');
  assert.equal(localTime('2026-03-08T06:59:59Z', 'America/New_York'), '2026-03-08 01:59:59');
  assert.equal(localTime('2026-03-08T07:00:00Z', 'America/New_York'), '2026-03-08 03:00:00');
  assert.equal(localTime('2026-06-01T12:00:00Z', 'UTC'), '2026-06-01 12:00:00');
  assert.equal(localTime('2026-06-01T12:00:00Z', 'Asia/Kolkata'), '2026-06-01 17:30:00');
});
