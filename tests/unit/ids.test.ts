import assert from 'node:assert/strict';
import { test } from 'node:test';
import KSUID from 'ksuid';
import { ID_CLOCK_SLACK_MS, idSecond, idsSince, idWindow, prefixedId } from '../../lib/ids';

// A KSUID-ended id's second (lib/ids.ts): what bounds the lookups of partitioned rows by such an id.

const made = (ms: number, fill = 255) => `msg_${KSUID.fromParts(ms, Buffer.alloc(16, fill)).string}`;

test('idSecond is the second a prefixed KSUID was made, whatever its payload; null for what is not one', () => {
  const now = Date.now();
  const second = idSecond(prefixedId('msg_'))!.getTime();
  assert.ok(second >= Math.floor(now / 1000) * 1000 && second <= Date.now(), `${second} vs ${now}`);
  assert.equal(idSecond(made(1_700_000_123_456))!.toISOString(), '2023-11-14T22:15:23.000Z');
  assert.equal(idSecond(made(1_700_000_123_456, 0))!.toISOString(), '2023-11-14T22:15:23.000Z');
  assert.equal(idSecond(KSUID.fromParts(1_500_000_000_000, Buffer.alloc(16, 1)).string)!.toISOString(), '2017-07-14T02:40:00.000Z', 'no prefix');
  for (const id of ['msg_day36', 'msg_', '', 'msg_zzzzzzzzzzzzzzzzzzzzzzzzzzz', 'msg_0ujsswThIGTUYm2K8FjOOfXtY1-']) assert.equal(idSecond(id), null, id);
});

test('idWindow is the second give or take the slack; none for a time before the app or after now and the slack (a seeded id)', () => {
  const now = Date.UTC(2026, 10, 29, 12);
  const at = now - 86_400_000;
  assert.deepEqual(idWindow(made(at), now), { from: new Date(at - ID_CLOCK_SLACK_MS), to: new Date(at + 1000 + ID_CLOCK_SLACK_MS) });
  assert.ok(idWindow(made(now + ID_CLOCK_SLACK_MS - 5000), now), 'a clock ahead by less than the slack');
  assert.equal(idWindow(made(now + ID_CLOCK_SLACK_MS + 5000), now), null);
  assert.equal(idWindow(made(1_700_000_000_000), now), null, 'before the app');
  assert.equal(idWindow('msg_Scale0000000000000000000042', now), null);
});

test('idsSince is the oldest window’s start, null if one id does not say', () => {
  const now = Date.UTC(2026, 10, 29, 12);
  const [a, b] = [now - 3 * 86_400_000, now - 86_400_000];
  assert.equal(idsSince([made(b), made(a)], now)!.getTime(), a - ID_CLOCK_SLACK_MS);
  assert.equal(idsSince([made(a), 'msg_day36'], now), null);
  assert.equal(idsSince([], now), null);
});
