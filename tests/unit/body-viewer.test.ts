import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compareBodies, diffJson, diffMarks, MAX_DIFFS } from '../../components/console/body-viewer/body-diff';
import { parseBody, pathString, prettyJson, RawNumber, shortJson, type TJson } from '../../components/console/body-viewer/json-body';

// The body viewer's logic: paths as typed, JSON vs raw text, and sent vs received.

test('paths read as a support engineer types them', () => {
  assert.equal(pathString([]), '');
  assert.equal(pathString(['data', 'amount']), 'data.amount');
  assert.equal(pathString(['items', 0, 'id']), 'items[0].id');
  assert.equal(pathString([0, 'id']), '[0].id');
  assert.equal(pathString(['metadata', 'order-id']), 'metadata["order-id"]');
  assert.equal(pathString(['a b', '$ok', '_x1']), '["a b"].$ok._x1');
  assert.equal(pathString(['quote"d']), '["quote\\"d"]');
  assert.equal(pathString(['1st']), '["1st"]');
});

test('a body is JSON when it parses, raw text otherwise (empty is not JSON)', () => {
  assert.deepEqual(parseBody('{"a":1}'), { json: true, value: { a: 1 } });
  assert.deepEqual(parseBody(' "text" '), { json: true, value: 'text' });
  assert.deepEqual(parseBody('a=1&b=2'), { json: false });
  assert.deepEqual(parseBody('{"a":'), { json: false });
  assert.deepEqual(parseBody(''), { json: false });
  assert.deepEqual(parseBody('  \n'), { json: false });
});

test('formatted JSON keeps a number as written', () => {
  assert.equal(prettyJson({ a: [1, { b: null }], c: {}, d: [] }), '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {},\n  "d": []\n}');
  assert.equal(prettyJson({ id: new RawNumber('12345678901234567890') }), '{\n  "id": 12345678901234567890\n}');
  assert.equal(shortJson(new RawNumber('1.10')), '1.10');
  assert.equal(shortJson('x'.repeat(100), 10), '"xxxxxxxx…');
  assert.equal(shortJson(undefined), '(absent)');
});

test('the same bytes are identical; the same JSON in other bytes is said so', () => {
  assert.deepEqual(compareBodies('{"a":1,"b":2}', '{"a":1,"b":2}'), { verdict: 'identical' });
  assert.deepEqual(compareBodies('{"a":1,"b":2}', '{ "b": 2, "a": 1 }\n'), { verdict: 'same-json' });
  assert.deepEqual(compareBodies('{"a":"é"}', '{"a":"\\u00e9"}'), { verdict: 'same-json' });
});

test('each differing value by its path: changed, only sent, only received', () => {
  const sent = JSON.stringify({ type: 'grant.succeeded', data: { amount: 5000, currency: 'usd', tags: ['a', 'b'], donor: { email: 'x@y.org' } } });
  const received = JSON.stringify({ type: 'grant.succeeded', data: { amount: 500, currency: 'usd', tags: ['a'], donor: 'x@y.org', extra: true } });
  const c = compareBodies(sent, received);
  assert.equal(c.verdict, 'different');
  if (c.verdict !== 'different') return;
  assert.deepEqual(
    c.diffs.map((d) => [d.kind, d.path]),
    [
      ['changed', 'data.amount'],
      ['removed', 'data.tags[1]'],
      ['changed', 'data.donor'],
      ['added', 'data.extra'],
    ],
  );
  assert.deepEqual(c.diffs[0], { path: 'data.amount', kind: 'changed', sent: 5000, received: 500 });
  const marks = diffMarks(c.diffs);
  assert.deepEqual(
    [...marks.sent],
    [
      ['data.amount', 'changed'],
      ['data.tags[1]', 'removed'],
      ['data.donor', 'changed'],
    ],
  );
  assert.deepEqual(
    [...marks.received],
    [
      ['data.amount', 'changed'],
      ['data.donor', 'changed'],
      ['data.extra', 'added'],
    ],
  );
});

test('a whole body of another type is one change at the root; null and 0 and false differ', () => {
  assert.deepEqual(diffJson({ a: 1 }, [1]).diffs, [{ path: '', kind: 'changed', sent: { a: 1 }, received: [1] }]);
  assert.deepEqual(
    diffJson({ a: null, b: 0 }, { a: false, b: 0 }).diffs.map((d) => d.path),
    ['a'],
  );
  assert.deepEqual(
    diffJson({ n: new RawNumber('1.0') }, { n: 1 }).diffs.map((d) => d.path),
    ['n'],
  );
  assert.deepEqual(diffJson({ n: new RawNumber('12345678901234567890') }, { n: new RawNumber('12345678901234567890') }).diffs, []);
});

test('when either side is not JSON, where the text first differs (1-based line and column)', () => {
  assert.deepEqual(compareBodies('a=1\nb=2', 'a=1\nb=3'), { verdict: 'different-text', offset: 6, line: 2, column: 3 });
  assert.deepEqual(compareBodies('{"a":1}', '{"a":1'), { verdict: 'different-text', offset: 6, line: 1, column: 7 });
});

test('a body replaced wholesale lists the first MAX_DIFFS differences and counts the rest', () => {
  const sent = Object.fromEntries(Array.from({ length: MAX_DIFFS + 50 }, (_, i) => [`k${i}`, i]));
  const { diffs, more } = diffJson(sent, {});
  assert.equal(diffs.length, MAX_DIFFS);
  assert.equal(more, 50);
});

// Any JSON value against itself has no difference; against a copy with one leaf changed, exactly that leaf.
const jsonValue = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<TJson>;
test('property: a value equals itself, and re-serialised it is the same JSON', () => {
  fc.assert(
    fc.property(jsonValue, (v) => {
      assert.deepEqual(diffJson(v, structuredClone(v)).diffs, []);
      const text = JSON.stringify(v);
      const spaced = JSON.stringify(v, null, 2);
      const verdict = compareBodies(text, spaced).verdict;
      assert.ok(text === spaced ? verdict === 'identical' : verdict === 'same-json', verdict);
    }),
  );
});

test('property: one changed leaf is found at its path', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.integer()), fc.string({ minLength: 1, maxLength: 8 }), (obj, key) => {
      const a: TJson = { data: { ...obj, [key]: 1 } };
      const b: TJson = { data: { ...obj, [key]: 2 } };
      assert.deepEqual(diffJson(a, b).diffs, [{ path: pathString(['data', key]), kind: 'changed', sent: 1, received: 2 }]);
    }),
  );
});
