import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isActiveNavLink, NAV_LINKS } from '../../components/console/nav-items';

const activeOn = (pathname: string) => NAV_LINKS.filter((l) => isActiveNavLink(l, pathname)).map((l) => l.label);

test('a case page lights up no entry of the main navigation (it is reached by search)', () => {
  assert.deepEqual(activeOn('/cases/GC-7KQ2M9'), []);
  assert.deepEqual(activeOn('/cases'), []);
});

test('each section lights up its own entry, on its page and below it', () => {
  assert.deepEqual(activeOn('/'), ['Health']);
  assert.deepEqual(activeOn('/problems'), ['Problems']);
  assert.deepEqual(activeOn('/webhooks/ep_1/messages/msg_1'), ['Webhooks']);
  assert.deepEqual(activeOn('/receivers/abc'), ['Receivers']);
  assert.deepEqual(activeOn('/receipts/12'), ['Receivers']);
  assert.deepEqual(activeOn('/connects/test_1/grants'), ['Nonprofits & Connects']);
  assert.deepEqual(activeOn('/problemsx'), [], 'a prefix is a path segment, not a string prefix');
});
