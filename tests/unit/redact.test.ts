import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redact } from '@/lib/redact';

// What reaches a log: secrets and personal details out, the rest (dates above all) kept.

test('secrets, tokens, e-mail addresses and phone-like numbers are cut', () => {
  assert.equal(redact('key whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw= sent'), 'key whsec_… sent');
  assert.equal(redact('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer …');
  assert.equal(redact('from ada@example.org'), 'from <email>');
  assert.equal(redact('call +1 (555) 555-0123 now'), 'call <number> now');
  assert.equal(redact('card 4111 1111 1111 1111'), 'card <number>');
});

test('dates and times stay readable', () => {
  for (const text of [
    'since 2026-11-23T12:00:00.000Z',
    'on 2026-11-23 at noon',
    'window 2026-11-01 … 2026-11-14',
    'took 1234 ms',
    'between 2026-11-01 2026-11-14',
  ]) {
    assert.equal(redact(text), text);
  }
});
