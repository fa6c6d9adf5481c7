import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { pageQuery, pageSearchParams, ZPageTokenSearch } from '@/lib/http/page-props';

// How pages read their query: only the named parameters, the first of repeated ones, an empty one
// as absent, and a bad value dropped by the page's `.catch`, never a failed page.

const ZSearch = z.object({
  q: z
    .string()
    .default('')
    .transform((q) => q.trim().slice(0, 5))
    .catch(''),
  before: z.coerce.number().int().positive().optional().catch(undefined),
});

test('the named parameters, parsed; others ignored', () => {
  assert.deepEqual(pageQuery({ q: '  grace hopper ', before: '42', other: 'x' }, ZSearch), { q: 'grace', before: 42 });
  assert.deepEqual(pageQuery(new URLSearchParams('q=ada&before=7'), ZSearch), { q: 'ada', before: 7 }, 'URLSearchParams read alike');
});

test('the first of repeated values; empty or bad values as absent', () => {
  assert.deepEqual(pageQuery({ q: ['one', 'two'], before: ['3', '4'] }, ZSearch), { q: 'one', before: 3 });
  assert.deepEqual(pageQuery({ q: '', before: '' }, ZSearch), { q: '', before: undefined });
  assert.deepEqual(pageQuery({ before: '-1' }, ZSearch), { q: '', before: undefined });
  assert.deepEqual(pageQuery({ before: 'soon' }, ZSearch), { q: '', before: undefined });
  assert.deepEqual(pageQuery({ pageToken: 'x'.repeat(2001) }, ZPageTokenSearch), { pageToken: undefined });
});

test('pageSearchParams keeps one value a key for the parsers pages share with their routes', () => {
  assert.equal(pageSearchParams({ a: '1', b: ['2', '3'], c: undefined }).toString(), 'a=1');
});
