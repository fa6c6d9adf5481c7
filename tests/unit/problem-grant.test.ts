import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskEmail, problemGrant } from '../../lib/console/investigation/problem-grant';

const payload = {
  type: 'grant.succeeded',
  timestamp: '2026-11-24T10:00:00.000Z',
  data: { id: 'g1', trackingId: 'GC-7KQ2M9', amount: 15000, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org' },
};

test('a grant’s tracking id, masked donor e-mail and amount, from the payload', () => {
  assert.deepEqual(problemGrant({ eventType: 'grant.succeeded', payload }), { trackingId: 'GC-7KQ2M9', donor: 'a•••@example.org', amount: 15000 });
});

test('without the payload, the tags give the tracking id and the donor (no amount)', () => {
  const tags = ['grant:g1', 'tracking:GC-7KQ2M9', 'donor:ada@example.org', 'connect:test_1'];
  assert.deepEqual(problemGrant({ eventType: 'grant.succeeded', tags }), { trackingId: 'GC-7KQ2M9', donor: 'a•••@example.org', amount: null });
});

test('no grant for operational events or a message without anything to say', () => {
  assert.equal(
    problemGrant({ eventType: 'webhook.disabled', payload: { type: 'webhook.disabled', data: { webhookId: 'ep_1' } }, tags: ['webhook:ep_1'] }),
    null,
  );
  assert.equal(problemGrant({ eventType: 'grant.succeeded', tags: ['test'] }), null);
});

test('the e-mail is masked after its first character, never shown whole', () => {
  assert.equal(maskEmail('grace.hopper@navy.example'), 'g•••@navy.example');
  assert.equal(maskEmail('élise@example.org'), 'é•••@example.org');
  assert.equal(maskEmail('not-an-email'), '•••');
});
