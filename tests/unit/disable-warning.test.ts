import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aboutWords, disableWarning, spanWords } from '../../lib/console/health/disable-warning';

// A webhook about to be disabled, in the words the health home, the webhook page and the alert use.

const since = Date.parse('2026-11-27T05:00:00.000Z');
const H = 3600_000;
const w = {
  disabled: false,
  failingSince: new Date(since).toISOString(),
  disablesAt: new Date(since + 5 * 24 * H).toISOString(),
  eventTypes: ['grant.succeeded'],
};

test('the issue’s sentence: failing for 3 h 12 min, disabled in about … unless a delivery succeeds, grants waiting', () => {
  const now = since + 3 * H + 12 * 60_000;
  const warning = disableWarning(w, 41, now);
  assert.equal(warning?.sentence, 'failing for 3 h 12 min — will be disabled in about 5 d unless a delivery succeeds; 41 grants waiting');
  assert.equal(warning?.percent, 2);
  const late = disableWarning({ ...w, disablesAt: new Date(since + 23 * H).toISOString() }, 1, now);
  assert.equal(late?.sentence, 'failing for 3 h 12 min — will be disabled in about 20 h unless a delivery succeeds; 1 grant waiting');
  assert.equal(late?.percent, 13);
});

test('past the threshold, other event types, no count, and nothing to say', () => {
  const past = disableWarning({ ...w, eventTypes: ['webhook.failing'] }, null, since + 6 * 24 * H);
  assert.equal(past?.sentence, 'failing for 6 d — will be disabled any moment now (its time has come) unless a delivery succeeds');
  assert.equal(past?.percent, 100);
  assert.equal(disableWarning({ ...w, disabled: true }, 3, since), null);
  assert.equal(disableWarning({ ...w, failingSince: null, disablesAt: null }, 3, since), null);
  assert.match(disableWarning({ ...w, eventTypes: ['grant.succeeded', 'webhook.disabled'] }, 2, since + H)!.sentence, /2 messages waiting$/);
});

test('spans in words', () => {
  assert.equal(spanWords(45_000), '45 s');
  assert.equal(spanWords(0), '0 s');
  assert.equal(spanWords(2 * 24 * H + 4 * H + 5 * 60_000), '2 d 4 h');
  assert.equal(spanWords(H), '1 h');
  assert.equal(aboutWords(30_000), 'under a minute');
  assert.equal(aboutWords(12 * 60_000), 'about 12 min');
  assert.equal(aboutWords(47 * H), 'about 47 h');
});

test('a capped webhook in words: its cap, what waits and how long it takes to drain at the cap', async () => {
  const { cappedWords } = await import('../../lib/console/webhooks/capped-words');
  assert.equal(cappedWords(20, 1240), 'capped at 20/s — 1,240 waiting, drains in about 1 min');
  assert.equal(cappedWords(20, 300), 'capped at 20/s — 300 waiting, drains in under a minute');
  assert.equal(cappedWords(2, 36_000), 'capped at 2/s — 36,000 waiting, drains in about 5 h');
  assert.equal(cappedWords(20, 0), 'capped at 20/s');
  assert.equal(cappedWords(20, null), 'capped at 20/s');
});
