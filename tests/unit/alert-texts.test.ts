import assert from 'node:assert/strict';
import { test } from 'node:test';

// Issue 50 item 5: what an alert says to people — Slack and e-mail — in words: labels, not
// `camelCase: value`; a success rate as a percentage; times in CONSOLE_TIME_ZONE with the zone
// named; the webhook by its name and a link to its page (PUBLIC_URL based), not to /alerts only.

process.env.CONSOLE_TIME_ZONE = 'Europe/Berlin';
process.env.PUBLIC_URL = 'https://console.example.org';
const { emailMessage, slackBody } = await import('../../lib/console/alerts/alert-message');

const rule = {
  id: '11111111-1111-4111-8111-111111111111',
  environment: 'sandbox',
  name: 'Low success',
  kind: 'success_rate',
  webhookId: 'ep_abc',
  threshold: 50,
  window: '24h',
  minAttempts: 10,
  targetUrl: 'https://hooks.slack.test/x',
  targetFormat: 'slack',
  secret: 'whsec_x',
  enabled: true,
  createdAt: new Date(),
  updatedAt: new Date(),
} as never;
const alert = {
  id: '22222222-2222-4222-8222-222222222222',
  ruleId: '11111111-1111-4111-8111-111111111111',
  subject: 'webhook:ep_abc',
  firedAt: new Date('2026-11-29T02:26:28.123Z'),
  clearedAt: null,
  details: {
    webhookId: 'ep_abc',
    url: 'https://crm.example.org/hook',
    description: 'Donor CRM',
    failureStreak: 3,
    attempts: 12,
    successes: 3,
    successRate: 0.25,
    window: '24h',
    lastSuccessAt: '2026-11-29T01:00:00.000Z',
  },
  notifiedAt: null,
  repeats: 0,
  acknowledgedAt: null,
  acknowledgedBy: null,
  acknowledgeNote: null,
  snoozedUntil: null,
} as never;
const notice = { type: 'alert.fired' as const, rule, alert, repeat: 0 };

test('Slack gets a readable message: labels in words, the rate as %, local times with the zone, the webhook page linked', () => {
  const body = JSON.parse(slackBody(notice));
  const fields = body.blocks.flatMap((b: { fields?: { text: string }[] }) => b.fields ?? []).map((f: { text: string }) => f.text);
  assert.ok(fields.includes('*Success rate*\n25%'), JSON.stringify(fields));
  assert.ok(fields.includes('*Webhook*\nDonor CRM'), JSON.stringify(fields));
  assert.ok(fields.includes('*Last successful delivery*\n2026-11-29 02:00:00 (Europe/Berlin)'), JSON.stringify(fields));
  assert.ok(fields.includes('*Fired*\n2026-11-29 03:26:28 (Europe/Berlin)'), JSON.stringify(fields));
  assert.deepEqual(
    fields.filter((f: string) => /^\*[a-z]+[A-Z]/.test(f)),
    [],
    'no camelCase labels',
  );
  assert.match(body.text, /^\[firing\] Low success: Donor CRM \(sandbox\) — Webhook “Donor CRM” succeeds on less than 50% /);
  assert.match(body.text, /https:\/\/console\.example\.org\/webhooks\/ep_abc$/);
  const buttons = body.blocks.find((b: { type: string }) => b.type === 'actions').elements.map((e: { url: string }) => e.url);
  assert.deepEqual(buttons, ['https://console.example.org/webhooks/ep_abc', `https://console.example.org/alerts#alert-22222222-2222-4222-8222-222222222222`]);
});

test('the e-mail says the same in lines of words, the webhook named, not by id', () => {
  const { subject, text } = emailMessage(notice);
  assert.equal(subject, '[firing] Low success: Donor CRM (sandbox)');
  assert.match(text, /^Success rate: 25%$/m);
  assert.match(text, /^Condition: webhook “Donor CRM” succeeds on less than 50% of its attempts over 24h \(at least 10 attempts\)$/m);
  assert.match(text, /^Open: https:\/\/console\.example\.org\/webhooks\/ep_abc$/m);
  assert.doesNotMatch(text, /ep_abc(?!$)|\d\dT\d\d:|^[a-z]+[A-Z]\w*:/m, text);
});

test("a disabled webhook's reason quotes its time as the alert writes times, not as raw ISO beside them (issue 50, finding 7)", () => {
  const disabled = {
    ...notice,
    rule: { ...(rule as object), kind: 'webhook_disabled', name: 'Disabled' } as never,
    alert: {
      ...(alert as object),
      details: {
        webhookId: 'ep_abc',
        description: 'Donor CRM',
        disabledReason: 'failing with no success since 2026-11-29T02:25:58Z',
        disabledAt: '2026-11-29T02:26:28.000Z',
      },
    } as never,
  };
  const { text } = emailMessage(disabled);
  assert.match(text, /^Why disabled: failing with no success since 2026-11-29 03:25:58 \(Europe\/Berlin\)$/m, text);
  assert.match(text, /^Disabled at: 2026-11-29 03:26:28 \(Europe\/Berlin\)$/m, text);
  assert.doesNotMatch(text, /\d\dT\d\d:/, text);
});

test('a "paused too long" e-mail says which webhook, since when in the zone, by whom, how much waits, and the rule in hours', () => {
  const paused = {
    ...notice,
    rule: { ...(rule as object), kind: 'webhook_paused', threshold: 4, name: 'Paused too long' } as never,
    alert: {
      ...(alert as object),
      details: {
        webhookId: 'ep_abc',
        url: 'https://crm.example.org/hook',
        description: 'Donor CRM',
        pausedAt: '2026-11-28T22:00:00.000Z',
        pausedBy: 'ops@example.org',
        pausedHours: 4,
        waiting: 1240,
      },
    } as never,
  };
  const { text } = emailMessage(paused);
  assert.match(text, /Webhook “Donor CRM” has been paused for 4 h or more\./);
  assert.match(text, /^Paused at: 2026-11-28 23:00:00 \(Europe\/Berlin\)$/m);
  assert.match(text, /^Paused by: ops@example\.org$/m);
  assert.match(text, /^Waiting to be delivered: 1,240 messages$/m);
  assert.match(text, /^Allowed pause \(hours\): 4$/m);
});

test('"Waiting to be delivered" counts messages for an incident as for a pause: the same backlog (pending and sending), test events in it too', () => {
  const incident = (details: Record<string, unknown>) =>
    emailMessage({
      ...notice,
      rule: { ...(rule as object), kind: 'about_to_disable', name: 'Outage' } as never,
      alert: { ...(alert as object), details: { webhookId: 'ep_abc', description: 'Donor CRM', ...details } } as never,
    }).text;
  const failing = incident({ stage: 'failing', failingSince: '2026-11-29T01:00:00.000Z', waiting: 41 });
  assert.match(failing, /^Waiting to be delivered: 41 messages$/m, failing);
  const enabled = incident({ stage: 'enabled', disabledAt: '2026-11-29T01:30:00.000Z', enabledAt: '2026-11-29T02:00:00.000Z', waiting: 1 });
  assert.match(enabled, /\(1 message waiting\)/, enabled);
  assert.match(enabled, /^Waiting to be delivered: 1 message$/m, enabled);
  assert.doesNotMatch(failing + enabled, /Waiting to be delivered: \d+ grants?/);
});
