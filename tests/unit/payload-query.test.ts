import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePayloadQuery } from '@/lib/console/search/payload-query';
import { searchWindowOf } from '@/lib/console/search/search-window';
import { excerptAround, searchableJson, UNSEARCHABLE } from '@/lib/db/search-json';
import { classifyQuery } from '@/lib/console/investigation/search-query';

const field = (q: string) => {
  const r = parsePayloadQuery(q);
  assert.ok(r && 'query' in r && r.query.kind === 'payload-field', `${q}: ${JSON.stringify(r)}`);
  return r.query;
};
const problem = (q: string) => {
  const r = parsePayloadQuery(q);
  assert.ok(r && 'problem' in r, `${q} should be refused: ${JSON.stringify(r)}`);
  return r.problem;
};

test('path=value: values typed as JSON, bare words as strings, the containment document', () => {
  assert.equal(field('data.amount=15000').document, '{"data":{"amount":15000}}');
  assert.equal(field('data.amount = "15000"').document, '{"data":{"amount":"15000"}}');
  assert.equal(field('data.fund.id=fidelity-charitable').document, '{"data":{"fund":{"id":"fidelity-charitable"}}}');
  assert.equal(field('data.test=true').valueJson, 'true');
  assert.equal(field('data.note=null').valueJson, 'null');
  assert.equal(field('data.amount=-1.5e3').valueJson, '-1.5e3');
  assert.equal(field('data.amount=12345678901234567890').valueJson, '12345678901234567890', 'a big number keeps its digits');
  assert.equal(field('data.name=Grace Hopper').valueJson, '"Grace Hopper"');
  assert.equal(field('data.tags=["a"]').document, '{"data":{"tags":["a"]}}');
});

test('"free text": the words, spaces folded', () => {
  assert.deepEqual(parsePayloadQuery('"  Grace   Hopper "'), { query: { kind: 'payload-text', text: 'Grace Hopper' } });
});

test('refused: other operators, malformed paths and values, empty text', () => {
  for (const op of ['>', '<', '>=', '<=', '!=', '==', '~', '=~', '!~', ':='])
    assert.match(problem(`data.amount${op}5`), new RegExp(`operator "${op.replace(/[~=!<>:]/g, (c) => `\\${c}`)}" is not supported`));
  assert.match(problem('data..amount=1'), /malformed: an empty key/);
  assert.match(problem('.data=1'), /malformed/);
  assert.match(problem('data.items[0]=1'), /array indexes are not supported/);
  assert.match(problem('data.name="Ada'), /malformed/);
  assert.match(problem('data.name=Ada "x"'), /quote the whole string/);
  assert.match(problem('data.x={bad'), /malformed/);
  assert.match(problem('data.amount='), /value is missing/);
  assert.match(problem('data.amount=1e-99999'), /cannot be searched/);
  assert.match(problem('data.name="\\u0000"'), /cannot be searched/);
  assert.match(problem('"unclosed'), /no closing quote/);
  assert.match(problem('"!!"'), /letter or a digit/);
  assert.match(problem(`${Array.from({ length: 13 }, () => 'a').join('.')}=1`), /too deep/);
});

test('ids, e-mails, names and plain words are no payload query, and classify as before', () => {
  for (const q of ['GC-7KQ2M9', 'msg_2bOldOldOldOldOldOldOldOld00', 'ada@example.org', 'Grace Hopper', 'timeout', 'https://example.org/x?a=b']) {
    assert.equal(parsePayloadQuery(q), null, q);
  }
  assert.equal(classifyQuery('ada@example.org').kind, 'email');
});

test('the window: 7 days by default, dates count whole days, at most 31 days', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const w = searchWindowOf(null, null, now);
  assert.ok(!('path' in w));
  assert.equal(w.until.toISOString(), now.toISOString());
  assert.equal(w.since.toISOString(), '2026-11-19T12:00:00.000Z');
  const days = searchWindowOf('2026-11-01', '2026-11-01', now);
  assert.ok(!('path' in days));
  assert.deepEqual([days.since.toISOString(), days.until.toISOString()], ['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z']);
  assert.deepEqual(searchWindowOf('2026-10-01', '2026-11-01', now), {
    path: 'since',
    message: 'the window from since to until must be at most 31 days (it is 32 days)',
  });
  assert.equal('path' in searchWindowOf('2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z', now), false, '31 days exactly is allowed');
  assert.deepEqual(searchWindowOf('soon', null, now), {
    path: 'since',
    message: 'since must be a date or an RFC 3339 timestamp (2026-11-22 or 2026-11-22T10:15:30Z)',
  });
  assert.equal((searchWindowOf('2026-11-02', '2026-11-01', now) as { message: string }).message, 'since must be before until');
});

test('which bodies are searchable: JSON objects and arrays jsonb can hold', () => {
  assert.equal(searchableJson('{"a":1}'), '{"a":1}');
  assert.equal(searchableJson(' [1,2]'), ' [1,2]');
  assert.equal(searchableJson('{"a":"[[[[ not nesting"}'), '{"a":"[[[[ not nesting"}');
  assert.equal(searchableJson('{"id":"b66565fa-3e41234-46f4"}'), '{"id":"b66565fa-3e41234-46f4"}', 'a string is no number');
  for (const t of [
    null,
    '',
    'text',
    '"a string"',
    '12',
    '{bad',
    '{"a":"\\u0000"}',
    '{"a":"\\ud83d\\ude00"}',
    `{"a":"${'x'.repeat(300 * 1024)}"}`,
    '{"a":1e-99999}',
    `${'['.repeat(101)}${']'.repeat(101)}`,
  ]) {
    assert.equal(searchableJson(t), UNSEARCHABLE, String(t).slice(0, 40));
  }
  assert.equal(excerptAround('abcdefghij', 'e', 4), '…defg…');
  assert.equal(excerptAround('abc', 'zz', 10), 'abc');
  // JSON is cut between members, so a viewer's masking sees whole values.
  const json = JSON.stringify({ memo: 'm'.repeat(100), firstName: 'Grace', lastName: 'Hopper', amount: 15000, note: 'n'.repeat(100) })
    .replace(/":/g, '": ')
    .replace(/,"/g, ', "');
  const cut = excerptAround(json, '"amount"', 40);
  assert.match(cut, /"amount": 15000/);
  assert.doesNotMatch(cut, /"(?:firstName|lastName)": "[^"]*(?:…|$)/, cut);
});
