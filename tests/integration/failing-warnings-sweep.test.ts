import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TTestDb } from '../helpers/in-process-db';
import type * as TWarnings from '../../lib/service/delivery/failing-warnings';
import type * as TDisable from '../../lib/service/delivery/disable-spent-stretches';

// The `webhook.failing` sweep on a real database opened by the app's own code (PGlite, or PostgreSQL
// with TEST_DATABASE_URL, where the racing sweeps run on separate connections): however many sweeps
// run at once (two workers), each share of a stretch is announced once; a stretch found past several
// shares announces the highest; a new stretch starts the count again; a stretch past the threshold
// is disabled by the sweep, once, with no attempt due. The end-to-end path (the
// worker's real stretch, signed deliveries) is failing-warnings.test.ts.

const THRESHOLD_MS = 100_000;
const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';
let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
let db: TTestDb;
let warnings: typeof TWarnings;
let disabling: typeof TDisable;

const rows = async <T>(text: string, params: unknown[] = []) => db.driverRows<T>(text, params);
const stretch = (agoMs: number) =>
  rows(`update service.webhooks set failing_since = now() - $1::int * interval '1 millisecond' where id = 'ep_failing'`, [agoMs]);
const sent = async () =>
  (
    await rows<{ percent: number }>(
      `select (payload::jsonb -> 'data' ->> 'thresholdPercent')::int as percent from service.messages where event_type = 'webhook.failing' order by created_at`,
    )
  ).map((r) => r.percent);
const sweepsAtOnce = async (n: number) => (await Promise.all(Array.from({ length: n }, () => warnings.warnFailingWebhooks()))).reduce((a, b) => a + b, 0);

before(async () => {
  process.env.DELIVERY_DISABLE_AFTER_MS = String(THRESHOLD_MS);
  opened = await openTestDatabase('failing-sweep');
  db = opened.client;
  warnings = await import('../../lib/service/delivery/failing-warnings');
  disabling = await import('../../lib/service/delivery/disable-spent-stretches');
  await rows(
    `insert into service.webhooks (id, account_id, url, event_types) values
       ('ep_failing', $1, 'https://failing.example.org/hook', '{grant.succeeded,webhook.failing}'),
       ('ep_watcher', $1, 'https://watcher.example.org/hook', '{webhook.failing,webhook.disabled}')`,
    [ACCOUNT],
  );
});
after(async () => {
  await opened?.close();
});

test('the share a sweep finds: none before half the threshold, then the highest passed', () => {
  assert.equal(warnings.failingLevel(49_999, THRESHOLD_MS), 0);
  assert.equal(warnings.failingLevel(50_000, THRESHOLD_MS), 50);
  assert.equal(warnings.failingLevel(80_000, THRESHOLD_MS), 75);
  assert.equal(warnings.failingLevel(200_000, THRESHOLD_MS), 90);
  assert.equal(warnings.sweepIntervalMs(5 * 86_400_000), 30_000);
  assert.equal(warnings.sweepIntervalMs(8000), 200);
});

test('racing sweeps announce each share once per stretch, to the others only', async () => {
  await stretch(40_000);
  assert.equal(await sweepsAtOnce(3), 0, 'under half: nothing');
  await stretch(80_000);
  assert.equal(await sweepsAtOnce(4), 1, 'four sweeps at once, one warning');
  assert.deepEqual(await sent(), [75], 'found past 75 %: that share alone (50 % is not sent late)');
  assert.equal(await sweepsAtOnce(2), 0, 'announced: not again');
  await stretch(95_000);
  assert.equal(await sweepsAtOnce(4), 1);
  assert.deepEqual(await sent(), [75, 90]);
  const targets = await rows<{ webhook_id: string }>(
    `select d.webhook_id from service.deliveries d join service.messages m on m.id = d.message_id where m.event_type = 'webhook.failing'`,
  );
  assert.deepEqual([...new Set(targets.map((t) => t.webhook_id))], ['ep_watcher'], 'never queued for the failing webhook itself');
  // A success ends the stretch; the next one is announced afresh.
  await rows(`update service.webhooks set failing_since = null where id = 'ep_failing'`);
  await stretch(55_000);
  assert.equal(await sweepsAtOnce(3), 1);
  assert.deepEqual(await sent(), [75, 90, 50]);
  // Disabled or deleted: no warning.
  await stretch(99_000);
  await rows(`update service.webhooks set disabled = true where id = 'ep_failing'`);
  assert.equal(await sweepsAtOnce(2), 0);
});

test('racing sweeps disable a webhook whose stretch is spent, once, with one webhook.disabled', async () => {
  await rows(`update service.webhooks set disabled = false, disabled_reason = null, disabled_at = null where id = 'ep_failing'`);
  await stretch(99_000);
  const disableAtOnce = async (n: number) => (await Promise.all(Array.from({ length: n }, () => disabling.disableSpentStretches()))).reduce((a, b) => a + b, 0);
  assert.equal(await disableAtOnce(3), 0, 'not yet: 99 % of the threshold');
  await stretch(100_500);
  assert.equal(await disableAtOnce(4), 1, 'four sweeps at once, disabled once');
  assert.equal(await disableAtOnce(2), 0, 'disabled: not again');
  const [w] = await rows<{ disabled: boolean; disabled_reason: string; disabled_at: Date | null; failing_since: Date }>(
    `select disabled, disabled_reason, disabled_at, failing_since from service.webhooks where id = 'ep_failing'`,
  );
  assert.equal(w.disabled, true);
  assert.match(w.disabled_reason, /^failing with no success since \d{4}-\d{2}-\d{2}T/);
  assert.ok(w.disabled_at);
  const events = await rows<{ id: string; data: Record<string, unknown> }>(
    `select id, payload::jsonb -> 'data' as data from service.messages where event_type = 'webhook.disabled'`,
  );
  assert.equal(events.length, 1, 'one webhook.disabled');
  assert.equal(events[0].data.webhookId, 'ep_failing');
  assert.equal(events[0].data.reason, w.disabled_reason);
  assert.equal(events[0].data.trigger, 'delivery', 'the stretch disabled it, not the API');
  assert.equal(events[0].data.failingSince, new Date(w.failing_since).toISOString());
  const targets = await rows<{ webhook_id: string }>(`select webhook_id from service.deliveries where message_id = $1`, [events[0].id]);
  assert.deepEqual(
    targets.map((t) => t.webhook_id),
    ['ep_watcher'],
    'to the others only',
  );
  assert.equal(await sweepsAtOnce(2), 0, 'a disabled webhook gets no warning');
  // A deleted webhook past its threshold is left alone.
  await rows(`update service.webhooks set disabled = false, deleted_at = now() where id = 'ep_failing'`);
  assert.equal(await disableAtOnce(2), 0);
});
