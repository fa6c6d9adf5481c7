import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ZInstant } from '../../lib/console/instant';
import { describeGap, gapSpan } from '../../lib/console/recover/gap-words';
import { storySentence } from '../../lib/console/recover/story-words';
import { fromUtcInput, toUtcInput, withReadableTimes } from '../../lib/console/format';

// The console's times in words, true to the second where minutes would lie (issue 50, finding 7).

const now = new Date('2026-11-29T23:40:00Z');

test('an outage under a minute is told to the second with its length, never "23:21–23:21"', () => {
  const short = { disabledAt: '2026-11-29T23:21:05.120Z', enabledAt: '2026-11-29T23:21:34.400Z' };
  assert.equal(gapSpan(short, now), '23:21:05–23:21:34 (29 s)');
  assert.equal(gapSpan({ disabledAt: '2026-11-29T23:21:50Z', enabledAt: '2026-11-29T23:22:10Z' }, now), '23:21:50–23:22:10 (20 s)', 'across a minute too');
  const gap = { webhookId: 'ep_x', failingSince: null, missing: 2, failed: 0, missingWindow: { since: '', until: '' }, failedWindow: { since: '', until: '' } };
  assert.equal(describeGap({ ...gap, ...short }, 'grant', now), 'disabled 23:21:05–23:21:34 (29 s): 2 grants were never sent to it, 0 failed for good');
  assert.equal(
    storySentence({ outage: short, run: null, who: null, delivery: null, now }),
    'made while the webhook was disabled (23:21:05–23:21:34 (29 s) UTC); never sent to it: "Recover all" on the webhook’s page replays it',
  );
  // A minute or more: to the minute, as before.
  assert.equal(gapSpan({ disabledAt: '2026-11-29T05:10:12Z', enabledAt: '2026-11-29T09:42:59Z' }, now), '05:10–09:42');
  assert.equal(gapSpan({ disabledAt: '2026-11-28T05:10:12Z', enabledAt: '2026-11-29T09:42:59Z' }, now), '2026-11-28 05:10–2026-11-29 09:42');
  assert.equal(gapSpan({ disabledAt: '2026-11-29T23:21:05Z', enabledAt: null }, now), 'since 23:21', 'still disabled: no length yet');
});

test("an API sentence's RFC 3339 times are written as the console writes times", () => {
  assert.equal(withReadableTimes('failing with no success since 2026-11-29T03:26:28Z'), 'failing with no success since 2026-11-29 03:26:28 UTC');
  assert.equal(withReadableTimes('from 2026-11-29T03:26:28.123Z to 2026-11-29T05:00:00+02:00'), 'from 2026-11-29 03:26:28 UTC to 2026-11-29 03:00:00 UTC');
  assert.equal(withReadableTimes('the endpoint answered 410 Gone'), 'the endpoint answered 410 Gone');
  assert.equal(
    withReadableTimes('since 2026-11-29T03:26:28Z', (iso) => `<${iso}>`),
    'since <2026-11-29T03:26:28Z>',
  );
});

test('the UTC time fields: one fixed format, read back as UTC; what is not a time goes to the server as typed', () => {
  assert.equal(toUtcInput('2026-11-29T03:26:28.500Z'), '2026-11-29 03:26');
  assert.equal(toUtcInput(new Date('2026-01-02T04:05:00Z')), '2026-01-02 04:05');
  assert.equal(toUtcInput(undefined), '');
  assert.equal(fromUtcInput('2026-11-29 03:26'), '2026-11-29T03:26:00.000Z');
  assert.equal(fromUtcInput(' 2026-11-29T03:26:07 '), '2026-11-29T03:26:07.000Z');
  assert.equal(fromUtcInput(''), undefined);
  assert.equal(fromUtcInput('11/29/2026, 03:26 AM'), '11/29/2026, 03:26 AM');
  // The filters' schema reads what the fields write (and what they used to, with a T), as UTC.
  assert.equal(ZInstant.parse('2026-11-29 03:26').toISOString(), '2026-11-29T03:26:00.000Z');
  assert.equal(ZInstant.parse('2026-11-29T03:26').toISOString(), '2026-11-29T03:26:00.000Z');
  assert.equal(ZInstant.safeParse('11/29/2026, 03:26 AM').success, false);
});
