import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TEvaluate from '../../lib/console/alerts/evaluate-rules';
import type * as TAcknowledge from '../../lib/console/alerts/acknowledge-alert';

// A firing alert's reminder is claimed against the row, not against what the evaluation read: on a
// real database opened by the app's own code (PGlite, or PostgreSQL with TEST_DATABASE_URL), an
// operator's snooze or acknowledgement that lands between the evaluation's read and its claim wins
// (CI's embedded pass once saw a snooze made as a reminder fell due come back null, the reminder sent).

let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let evaluate: typeof TEvaluate;
let acknowledge: typeof TAcknowledge;
const RULE = '00000000-0000-4000-8000-0000000a1e70';

before(async () => {
  opened = await openTestDatabase('reminders');
  db = opened.client;
  evaluate = await import('../../lib/console/alerts/evaluate-rules');
  acknowledge = await import('../../lib/console/alerts/acknowledge-alert');
  await db.driverRows(
    `insert into console.alert_rules (id, environment, name, kind, target_url, secret) values ($1, 'sandbox', 'reminders', 'webhook_disabled', 'http://127.0.0.1:9/x', 'whsec_cmVtaW5kZXJzIG9mIGFuIGFsZXJ0IHJ1bGUhIQ==')`,
    [RULE],
  );
});
after(() => opened?.close());

/** A firing alert last notified an hour ago (a reminder is due), and the row as an evaluation reads it. */
async function dueAlert(subject: string) {
  const [row] = await db.driverRows<{ id: string }>(
    `insert into console.alerts (rule_id, subject, fired_at, notified_at) values ($1, $2, now() - interval '2 hours', now() - interval '1 hour') returning id`,
    [RULE, subject],
  );
  const [read] = await db.driverRows<{ notified_at: Date | string; fired_at: Date | string }>(
    `select notified_at, fired_at from console.alerts where id = $1`,
    [row.id],
  );
  return { id: row.id, notifiedAt: new Date(read.notified_at), firedAt: new Date(read.fired_at) };
}

const stateOf = async (id: string) =>
  (await db.driverRows<{ snoozed: boolean; repeats: number }>(`select snoozed_until > now() as snoozed, repeats from console.alerts where id = $1`, [id]))[0];

test('a snooze made after the evaluation read the alert holds: no reminder is claimed, the snooze stays', async () => {
  const read = await dueAlert('webhook:ep_snoozed_meanwhile');
  await acknowledge.snoozeAlert('sandbox', read.id, 2);
  assert.equal(await evaluate.claimReminder(read, new Date()), null, 'the stale read claims nothing');
  assert.deepEqual(await stateOf(read.id), { snoozed: true, repeats: 0 });
});

test('an acknowledgement made after the read holds too; an alert nobody quieted gets its one reminder; an expired snooze is cleared by it', async () => {
  const acked = await dueAlert('webhook:ep_acked_meanwhile');
  await acknowledge.acknowledgeAlert('sandbox', acked.id, 'ops@example.org', 'on it');
  assert.equal(await evaluate.claimReminder(acked, new Date()), null);

  const due = await dueAlert('webhook:ep_due');
  const now = new Date();
  const claimed = await evaluate.claimReminder(due, now);
  assert.equal(claimed?.repeats, 1);
  assert.equal(await evaluate.claimReminder(due, now), null, 'a second evaluation with the same read claims nothing');

  const expired = await dueAlert('webhook:ep_snooze_over');
  await db.driverRows(`update console.alerts set snoozed_until = now() - interval '1 minute' where id = $1`, [expired.id]);
  assert.equal((await evaluate.claimReminder(expired, new Date()))?.snoozedUntil, null);
});
