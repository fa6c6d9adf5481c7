import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { attemptsOf, messageWhen, sendTest } from '../helpers/delivery';
import { eventually, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0039 partitions service.deliveries by created_at (issue 52), as 0037 did attempts: a store of the release
// before (migrations up to 0038) keeps every delivery, in the old table become the first partition (deliveries_p0,
// MINVALUE to the cutover, its range proved by a validated CHECK). The queue goes on across the cutover: a delivery of the
// old release still pending is claimed from the first partition and sent, and a message made now gets its delivery in the
// partition of its time and is sent too. The keys partitioning needs are there: (id, created_at) and one delivery per
// (message, webhook, created_at), and attempts no longer carry a foreign key to deliveries.

const NAME = 'old-deliveries-0038';
const ACCOUNT = '00000000-0000-4000-8000-00000000a038';
const WEBHOOK = `ep_${'olddeliveries0037'.padEnd(27, '0')}`;
const SECRET = `whsec_${Buffer.alloc(24, 38).toString('base64')}`;
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;
const receiver = await startReceiver();
const endpoint = receiver.endpoint();
endpoint.expectSecrets(SECRET);

// Two messages of the old release: one delivered three days before the walk (its attempt with it), one made two hours
// before and still pending, due (its worker never got to it before the upgrade).
const DONE = { message: id27('msg_', 'olddel0037done'), delivery: '00000000-0000-4000-8000-0000000c0380', attempt: id27('atmpt_', 'olddel0037a') };
const PENDING = { message: id27('msg_', 'olddel0037wait'), delivery: '00000000-0000-4000-8000-0000000c0381' };

const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', '${SECRET}');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ('${DONE.message}', '${ACCOUNT}', 'evt_${DONE.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{}}', now() - interval '3 days'),
    ('${PENDING.message}', '${ACCOUNT}', 'evt_${PENDING.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":2}}', now() - interval '2 hours');
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at) values
    ('${DONE.delivery}', '${DONE.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, 1, null, now() - interval '3 days'),
    ('${PENDING.delivery}', '${PENDING.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'pending', 0, 0, now() - interval '2 hours', now() - interval '2 hours');
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type) values
    ('${DONE.attempt}', '${DONE.delivery}', '${DONE.message}', '${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', now() - interval '3 days', 'success', 200, 5, 'ok', 'scheduled');`;

// A partition's bounds, as timestamps (null: MINVALUE).
const PARTS = `
  select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
         case when pg_get_expr(c.relpartbound, c.oid) like '%FROM (MINVALUE)%' then null
              else substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']*)''\\)')::timestamptz end as "from",
         substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']*)''\\)')::timestamptz as "to"
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
   where i.inhparent = 'service.deliveries'::regclass order by "from" nulls first`;

type TPart = { name: string; bound: string; from: Date | null; to: Date };

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0039: the deliveries of the release before are the first partition of service.deliveries, a pending one is claimed from it and sent, a new message is delivered from the partition of its time',
    release: '0038_receipts_partitioned',
    accounts: [NAME],
    rows,
    close: () => receiver.close(),
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      // The old pending delivery, claimed from the first partition: the receiver has it, signed, and it reads delivered.
      await eventually(async () => endpoint.requests().some((r) => JSON.parse(r.body).data?.n === 2), 30_000, 'the old pending delivery to arrive');
      await messageWhen(app, bearer, WEBHOOK, PENDING.message, 'success');
      assert.deepEqual(
        (await attemptsOf(app, bearer, WEBHOOK, DONE.message)).map((a) => a.id),
        [DONE.attempt],
      );
      // A message made now: its delivery in a partition after the cutover, claimed from there and sent.
      const fresh = await sendTest(app, bearer, WEBHOOK);
      await messageWhen(app, bearer, WEBHOOK, fresh, 'success');
      assert.ok(endpoint.requests().every((r) => r.verified));

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => {
        const kind = await query<{ kind: string }>(`select relkind::text as kind from pg_class where oid = 'service.deliveries'::regclass`);
        const deliveries = await query<{ message: string; part: string; status: string }>(
          `select message_id as message, tableoid::regclass::text as part, status from service.deliveries where account_id = $1 order by created_at`,
          [ACCOUNT],
        );
        const parts = await query<TPart>(PARTS);
        const check = await query<{ valid: boolean; def: string }>(
          `select convalidated as valid, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'service.deliveries_p0'::regclass and conname = 'deliveries_p0_range'`,
        );
        const keys = await query<{ def: string }>(
          `select pg_get_indexdef(indexrelid) as def from pg_index where indrelid = 'service.deliveries'::regclass and indisunique order by 1`,
        );
        const attemptKeys = await query<{ name: string }>(
          `select conname as name from pg_constraint where conrelid = 'service.attempts'::regclass and contype = 'f'`,
        );
        // A second delivery of the old delivered message to its webhook, as replay-missing writes it: the pair has one.
        const twice = await query(
          `insert into service.deliveries (message_id, webhook_id, account_id, event_type, created_at)
             select message_id, webhook_id, account_id, event_type, created_at from service.deliveries where id = $1`,
          [DONE.delivery],
        ).then(
          () => null,
          (err: Error) => err.message,
        );
        // A row at the cutover, written into the first partition itself: refused (its range ends there).
        const refused = await query(
          `insert into service.deliveries_p0 (message_id, webhook_id, account_id, event_type, created_at)
             select message_id, webhook_id, account_id, event_type, $2 from service.deliveries where id = $1`,
          [DONE.delivery, parts[0].to],
        ).then(
          () => null,
          (err: Error) => err.message,
        );
        return { kind: kind[0].kind, deliveries, parts, check: check[0], keys, attemptKeys, twice, refused };
      });

      assert.equal(look.kind, 'p', 'service.deliveries is a partitioned table');
      const [first, ...later] = look.parts.map((p) => ({ ...p, from: p.from && new Date(p.from), to: new Date(p.to) }));
      assert.equal(first.name, 'deliveries_p0');
      assert.equal(first.from, null, 'the first partition starts at MINVALUE');
      assert.ok(first.to.getTime() >= Date.parse(app.readyAt) - 600_000 && first.to.getTime() <= Date.parse(app.readyAt), 'its range ends at the upgrade');
      assert.deepEqual(
        look.deliveries.map((d) => [d.message, d.part, d.status]),
        [
          [DONE.message, 'service.deliveries_p0', 'success'],
          [PENDING.message, 'service.deliveries_p0', 'success'],
          [fresh, look.deliveries[2]?.part, 'success'],
        ],
        'every old delivery is in the first partition, and the new one',
      );
      const home = later.find((p) => `service.${p.name}` === look.deliveries[2].part);
      assert.ok(home, `the new delivery is in a later partition (${look.deliveries[2].part})`);
      assert.equal(look.check.valid, true);
      assert.equal(/'([^']+)'/.exec(look.check.def)?.[1], /TO \('([^']+)'\)/.exec(first.bound)?.[1], look.check.def);
      assert.match(String(look.refused), /violates (partition constraint|check constraint)/);
      assert.match(String(look.twice), /duplicate key value violates unique constraint/);
      assert.deepEqual(
        look.keys.map((k) => /\(.*\)$/.exec(k.def)?.[0]),
        ['(id, created_at)', '(message_id, webhook_id, created_at)'],
      );
      assert.deepEqual(look.attemptKeys, [], 'attempts reference deliveries without a foreign key');
      // The later partitions follow each other from the cutover, a week ahead of now at least (made at the app's start).
      let end = first.to.getTime();
      for (const p of later) {
        assert.equal(p.from?.getTime(), end, `${p.name} starts where the one before ends`);
        end = p.to.getTime();
      }
      assert.ok(end >= Date.now() + 6 * 86_400_000, `partitions reach ${new Date(end).toISOString()}`);
    },
  },
];
