import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { REDACTED, redactedJson, redactedJsonOf, redactTags, redactValue, scrubSecrets, scrubText } from '../../lib/console/export/redact-export';

// What an export leaves out: secrets always, donor details unless staff include them.

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const grant = {
  type: 'grant.succeeded',
  data: { id: 'g1', amount: 100, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', phone: null, note: '', metadata: { k: secret } },
};

test('secrets are replaced wherever they stand, donor details or not', () => {
  assert.equal(scrubSecrets(`key ${secret} and sk_test_abcDEF123 and Bearer eyJhbGci.x.y`), `key ${REDACTED} and ${REDACTED} and ${REDACTED}`);
  const withDonor = JSON.stringify(redactValue(grant, true));
  assert.ok(!withDonor.includes(secret));
  assert.ok(withDonor.includes('ada@example.org'));
});

test('donor fields and e-mail addresses are redacted by default; empty ones stay empty', () => {
  const out = redactValue(grant, false) as typeof grant;
  assert.deepEqual(out.data, {
    id: 'g1',
    amount: 100,
    firstName: REDACTED,
    lastName: REDACTED,
    email: REDACTED,
    phone: null,
    note: '',
    metadata: { k: REDACTED },
  });
  assert.equal(scrubText('answered 500 "no user ada@example.org"', false), `answered 500 "no user ${REDACTED}"`);
  assert.deepEqual(redactTags(['grant:g1', 'donor:ada@example.org'], false), ['grant:g1', `donor:${REDACTED}`]);
  assert.deepEqual(redactTags(['donor:ada@example.org'], true), ['donor:ada@example.org']);
  // The donor's name tag is donor data too.
  assert.deepEqual(redactTags(['name:ada lovelace', 'connect:c1'], false), [`name:${REDACTED}`, 'connect:c1']);
  assert.deepEqual(redactTags(['name:ada lovelace'], true), ['name:ada lovelace']);
});

test('redactedJson writes what stringifying redactValue writes, without the copy', () => {
  const line = {
    id: 'msg_1',
    tags: ['donor:ada@example.org'],
    explanation: `answered 500 for ada@example.org with ${secret}`,
    attempts: [{ id: 'a1', response: `Bearer abc.def`, responseGone: { kind: 'purged', note: 'purged by ada@example.org', sha256: null } }],
    receipts: [{ id: 1, bodyGone: { note: 'erased', nested: { email: 'x@example.org' } }, note: 'a note' }],
    payload: grant,
    payloadGone: 'erased at the request of ada@example.org',
    nothing: undefined,
    list: [null, '', 0, { firstName: '' }, { firstName: 0 }],
  };
  for (const includeDonor of [false, true]) {
    const out = redactedJson(line, includeDonor);
    assert.equal(out, JSON.stringify(redactValue(line, includeDonor)), `includeDonor=${includeDonor}`);
    assert.ok(!out.includes(secret) && !out.includes('abc.def'));
    assert.equal(out.includes('Lovelace'), includeDonor);
  }
});

test('redactedJsonOf (in place, no replacer) writes exactly what redactedJson writes, for any value', () => {
  const key = fc.constantFrom('id', 'firstName', 'lastName', 'email', 'phone', 'note', 'bodyGone', 'responseGone', 'data', 'payload', 'x@y', 'text');
  const text = fc.oneof(
    fc.string(),
    fc.constantFrom('', 'ada@example.org', `uses ${secret}`, 'sk_test_abc123', 'bearer x.y', 'Bearer', '[redacted]', 'a@b', 'no one@example', 'plain'),
  );
  const leaf = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean());
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }),
    ),
  }));
  fc.assert(
    fc.property(value, fc.boolean(), (v, includeDonor) => {
      assert.equal(redactedJsonOf(structuredClone(v), includeDonor), redactedJson(v, includeDonor));
    }),
    { numRuns: 2000 },
  );
});
