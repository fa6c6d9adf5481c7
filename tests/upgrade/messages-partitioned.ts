import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import KSUID from 'ksuid';
import { withAppDb } from '../helpers/app';
import { attemptsOf, messageWhen, sendTest } from '../helpers/delivery';
import { call, eventually, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0040 partitions service.messages by created_at (issue 52), as 0039 did deliveries: a store of the release
// before (migrations up to 0039) keeps every message, in the old table become the first partition (messages_p0, MINVALUE
// to the cutover, its range proved by a validated CHECK). Its messages are read by id — one whose KSUID names its time
// (a lookup bounded to that time) and one whose id does not (unbounded) — and by event id; a pending delivery of the old
// release is claimed with its message's payload and sent, and a message made now lands in the partition of its time. The
// keys are (id, created_at) and an index, not a unique key, on (account_id, event_id); the payload-words trigger runs on
// the new table. Deliveries referenced their message by (message_id, created_at) from 0040 until 0045 dropped the key
// (tests/upgrade/deliveries-no-foreign-keys.ts), which the app's start applies too: the walked store has none.

const NAME = 'old-messages-0039';
const ACCOUNT = '00000000-0000-4000-8000-00000000a039';
const WEBHOOK = `ep_${'oldmessages0039'.padEnd(27, '0')}`;
const SECRET = `whsec_${Buffer.alloc(24, 39).toString('base64')}`;
const receiver = await startReceiver();
const endpoint = receiver.endpoint();
endpoint.expectSecrets(SECRET);

// Made as the app makes ids: a KSUID of the message's time (three days before the walk), its event's of the same second.
const threeDaysAgo = Date.now() - 3 * 86_400_000;
const ksuidAt = (prefix: string) => `${prefix}${KSUID.fromParts(threeDaysAgo, randomBytes(16)).string}`;
// DONE: delivered three days before, with its attempt, its id a KSUID of then. PENDING: two hours before, still pending
// and due; its id (hand-made, as older test rows are) is no KSUID of its time.
const DONE = { message: ksuidAt('msg_'), event: ksuidAt('evt_'), delivery: '00000000-0000-4000-8000-0000000c0390', attempt: ksuidAt('atmpt_') };
const PENDING = { message: `msg_${'oldmsg0039wait'.padEnd(27, '0')}`, delivery: '00000000-0000-4000-8000-0000000c0391' };

const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', '${SECRET}');
  insert into service.messages (id, account_id, event_id, event_type, payload, payload_json, created_at) values
    ('${DONE.message}', '${ACCOUNT}', '${DONE.event}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":1}}', null,
     to_timestamp(${threeDaysAgo / 1000})),
    ('${PENDING.message}', '${ACCOUNT}', 'evt_${PENDING.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":2}}', null, now() - interval '2 hours');
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at)
    select '${DONE.delivery}'::uuid, id, '${WEBHOOK}', account_id, 'grant.succeeded', 'success', 1, 1, null::timestamptz, created_at from service.messages where id = '${DONE.message}'
    union all
    select '${PENDING.delivery}'::uuid, id, '${WEBHOOK}', account_id, 'grant.succeeded', 'pending', 0, 0, created_at, created_at from service.messages where id = '${PENDING.message}';
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type) values
    ('${DONE.attempt}', '${DONE.delivery}', '${DONE.message}', '${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', to_timestamp(${threeDaysAgo / 1000 + 1}), 'success', 200, 5, 'ok', 'scheduled');`;

// A partition's bounds, as timestamps (null: MINVALUE).
const PARTS = `
  select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound,
         case when pg_get_expr(c.relpartbound, c.oid) like '%FROM (MINVALUE)%' then null
              else substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']*)''\\)')::timestamptz end as "from",
         substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']*)''\\)')::timestamptz as "to"
    from pg_inherits i join pg_class c on c.oid = i.inhrelid
   where i.inhparent = 'service.messages'::regclass order by "from" nulls first`;

type TPart = { name: string; bound: string; from: Date | null; to: Date };

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0040: the messages of the release before are the first partition of service.messages, read by id and event id, a pending one sent, a new one in the partition of its time',
    release: '0039_deliveries_partitioned',
    accounts: [NAME],
    rows,
    close: () => receiver.close(),
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      // The old pending delivery, claimed with its message's payload from the first partition: it arrives, signed.
      await eventually(async () => endpoint.requests().some((r) => JSON.parse(r.body).data?.n === 2), 30_000, 'the old pending delivery to arrive');
      await messageWhen(app, bearer, WEBHOOK, PENDING.message, 'success');
      // The old messages by id (bounded by its KSUID's time, or not: the hand-made id) and by event id, with their deliveries and attempts.
      for (const [id, n] of [
        [DONE.message, 1],
        [DONE.event, 1],
        [PENDING.message, 2],
      ] as const) {
        const r = await call(app, 'GET', `/v1/messages/${id}?withAttempts=true`, { token: bearer });
        assert.equal(r.status, 200, `${id}: ${r.text}`);
        assert.equal(r.body.payload.data.n, n);
        assert.deepEqual(
          r.body.deliveries.map((d: { webhookId: string; status: string }) => [d.webhookId, d.status]),
          [[WEBHOOK, 'success']],
        );
        if (n === 1)
          assert.deepEqual(
            r.body.deliveries[0].attempts.map((a: { id: string }) => a.id),
            [DONE.attempt],
            `${id}: its attempt`,
          );
      }
      assert.deepEqual(
        (await attemptsOf(app, bearer, WEBHOOK, DONE.message)).map((a) => a.id),
        [DONE.attempt],
      );
      const attempt = await call(app, 'GET', `/v1/webhooks/${WEBHOOK}/messages/${DONE.message}/attempts/${DONE.attempt}`, { token: bearer });
      assert.equal(attempt.body.response, 'ok', attempt.text);
      // A message made now: in a partition after the cutover, delivered.
      const fresh = await sendTest(app, bearer, WEBHOOK);
      await messageWhen(app, bearer, WEBHOOK, fresh, 'success');
      assert.ok(endpoint.requests().every((r) => r.verified));

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => {
        const kind = await query<{ kind: string }>(`select relkind::text as kind from pg_class where oid = 'service.messages'::regclass`);
        const messages = await query<{ id: string; part: string; words: boolean }>(
          `select id, tableoid::regclass::text as part, payload_words is not null as words from service.messages where account_id = $1 order by created_at`,
          [ACCOUNT],
        );
        const parts = await query<TPart>(PARTS);
        const check = await query<{ valid: boolean; def: string }>(
          `select convalidated as valid, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'service.messages_p0'::regclass and conname = 'messages_p0_range'`,
        );
        const indexes = await query<{ def: string; unique: boolean }>(
          `select pg_get_indexdef(indexrelid) as def, indisunique as unique from pg_index where indrelid = 'service.messages'::regclass order by 1`,
        );
        const refusal = (text: string, params: unknown[]) =>
          query(text, params).then(
            () => null,
            (err: Error) => err.message,
          );
        // A row at the cutover, written into the first partition itself: refused (its range ends there).
        const refused = await refusal(
          `insert into service.messages_p0 (id, account_id, event_id, event_type, payload, created_at) values ('msg_at_cutover', $1, 'evt_at_cutover', 'x', '{}', $2)`,
          [ACCOUNT, parts[0].to],
        );
        return { kind: kind[0].kind, messages, parts, check: check[0], indexes, refused };
      });

      assert.equal(look.kind, 'p', 'service.messages is a partitioned table');
      const [first, ...later] = look.parts.map((p) => ({ ...p, from: p.from && new Date(p.from), to: new Date(p.to) }));
      assert.equal(first.name, 'messages_p0');
      assert.equal(first.from, null, 'the first partition starts at MINVALUE');
      assert.ok(first.to.getTime() >= Date.parse(app.readyAt) - 600_000 && first.to.getTime() <= Date.parse(app.readyAt), 'its range ends at the upgrade');
      assert.deepEqual(
        look.messages.map((m) => [m.id, m.part]),
        [
          [DONE.message, 'service.messages_p0'],
          [PENDING.message, 'service.messages_p0'],
          [fresh, look.messages[2]?.part],
        ],
        'every old message is in the first partition, and the new one',
      );
      assert.ok(
        later.some((p) => `service.${p.name}` === look.messages[2].part),
        `the new message is in a later partition (${look.messages[2].part})`,
      );
      assert.equal(look.messages[2].words, true, "the new message's payload words are kept by the trigger, on its partition");
      assert.equal(look.check.valid, true);
      assert.equal(/'([^']+)'/.exec(look.check.def)?.[1], /TO \('([^']+)'\)/.exec(first.bound)?.[1], look.check.def);
      // Refused by its range (with the payload-words trigger on the partition, PostgreSQL words it as a move elsewhere).
      assert.match(String(look.refused), /violates (partition constraint|check constraint)|moving row to another partition/);
      const cols = (def: string) => /USING \w+ \((.*)\)/.exec(def)?.[1];
      assert.deepEqual(
        look.indexes.filter((i) => i.unique).map((i) => cols(i.def)),
        ['id, created_at'],
        'the one unique key',
      );
      assert.ok(
        look.indexes.some((i) => !i.unique && cols(i.def) === 'account_id, event_id'),
        'event ids are indexed',
      );
      let end = first.to.getTime();
      for (const p of later) {
        assert.equal(p.from?.getTime(), end, `${p.name} starts where the one before ends`);
        end = p.to.getTime();
      }
      assert.ok(end >= Date.now() + 6 * 86_400_000, `partitions reach ${new Date(end).toISOString()}`);
    },
  },
];
