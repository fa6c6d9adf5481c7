import assert from 'node:assert/strict';
import { test } from 'node:test';
import { alertSubject } from '../../lib/console/alerts/alert-subject';
import { alertTargetRule, formatInterval } from '../../lib/console/alerts/describe-settings';
import { describeRule } from '../../lib/console/alerts/rule-schemas';

const EP = 'ep_2pQz9fYvJ0bXcL1sK3mN4oP5qR6';

test('a webhook is named by its description, else its URL, and linked to its page; the id only when neither is known', () => {
  assert.deepEqual(alertSubject(`webhook:${EP}`, { webhookId: EP, url: 'https://acme.example/hook', description: 'Acme grants' }), {
    kind: 'webhook',
    id: EP,
    label: 'Acme grants',
    href: `/webhooks/${EP}`,
  });
  assert.equal(alertSubject(`webhook:${EP}`, { url: 'https://acme.example/hook', description: '' }).label, 'https://acme.example/hook');
  assert.equal(alertSubject(`webhook:${EP}`, {}).label, EP, 'an alert fired before descriptions were recorded');
});

test('a grant is named by its tracking id and linked to its case', () => {
  const g = alertSubject('grant:2f1c0e7a-0000-4000-8000-000000000001', { trackingId: 'GC-7KQ2M9' });
  assert.equal(g.label, 'grant GC-7KQ2M9');
  assert.equal(g.href, '/cases/GC-7KQ2M9');
  assert.equal(alertSubject('message:msg_1', {}).href, '/cases/msg_1');
});

test('a rule names its webhook by description when the caller knows it', () => {
  const rule = { kind: 'webhook_disabled', threshold: 0, window: null, minAttempts: 10, webhookId: EP };
  assert.equal(describeRule(rule, 'Acme grants'), 'webhook “Acme grants” is disabled');
  assert.equal(describeRule(rule), `webhook ${EP} is disabled`);
  assert.equal(
    describeRule({ ...rule, kind: 'grant_undelivered', threshold: 15 }, 'Acme grants'),
    "a grant's message is not delivered to webhook “Acme grants” within 15 min",
  );
});

test('the alerts page says the target rule and the interval in force', () => {
  assert.match(alertTargetRule(true), /loopback/);
  assert.doesNotMatch(alertTargetRule(true), /only/);
  assert.match(alertTargetRule(false), /^Public addresses only/);
  assert.equal(formatInterval(30_000), '30 s');
  assert.equal(formatInterval(200), '200 ms');
  assert.equal(formatInterval(90_000), '1.5 min');
  assert.equal(formatInterval(3_600_000), '1 h');
});
