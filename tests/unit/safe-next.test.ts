import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_NEXT, safeNext } from '../../lib/console/staff/safe-next';

// Known open-redirect bypasses of a "starts with /" check; each must fall back.
const refused = [
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '\u0000/webhooks',
  'https://evil.example/',
  'javascript:alert(1)',
  ' /webhooks',
  '///evil.example',
  '/%09/evil.example'.replace('%09', '\t'),
  'evil.example',
  '',
  '/'.repeat(1) + '\\/evil.example',
];
for (const next of refused) {
  test(`safeNext refuses ${JSON.stringify(next)}`, () => assert.equal(safeNext(next), DEFAULT_NEXT));
}

const kept = ['/webhooks', '/webhooks/ep_1?status=failed', '/cases/GC-7KQ2M9', '/%2F%2Fevil.example', '/receivers/abc#log'];
for (const next of kept) {
  test(`safeNext keeps ${JSON.stringify(next)}`, () => assert.equal(safeNext(next), next));
}

test('safeNext: not a string, an array, too long', () => {
  assert.equal(safeNext(undefined), DEFAULT_NEXT);
  assert.equal(safeNext(['/cases/x', '//evil']), '/cases/x');
  assert.equal(safeNext(`/${'a'.repeat(2001)}`), DEFAULT_NEXT);
});
