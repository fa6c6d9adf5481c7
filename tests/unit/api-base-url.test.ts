import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normalizeApiBaseUrl } from '../../lib/api-base-url';

// One way to name an API: every spelling an operator may paste means the same root.

const SAME: [string, string][] = [
  ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
  ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000'],
  ['http://127.0.0.1:3000/v1', 'http://127.0.0.1:3000'],
  ['http://127.0.0.1:3000/v1/', 'http://127.0.0.1:3000'],
  ['http://127.0.0.1:3000//v1//', 'http://127.0.0.1:3000'],
  ['HTTPS://API.Example.org:443/V1', 'https://api.example.org'],
  ['https://example.org/giving/v1', 'https://example.org/giving'],
  ['https://example.org/giving/', 'https://example.org/giving'],
  ['https://user:secret@example.org/v1?x=1#top', 'https://example.org'],
];
for (const [given, root] of SAME) {
  test(`${given} → ${root}`, () => {
    assert.equal(normalizeApiBaseUrl(given), root);
    assert.equal(normalizeApiBaseUrl(root), root, 'normalising twice changes nothing');
  });
}

test('a path that only ends in v1 is not cut', () => {
  assert.equal(normalizeApiBaseUrl('https://example.org/apiv1'), 'https://example.org/apiv1');
  assert.equal(normalizeApiBaseUrl('https://example.org/v10'), 'https://example.org/v10');
});
