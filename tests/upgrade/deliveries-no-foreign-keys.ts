import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { attemptsOf, messageWhen, sendTest } from '../helpers/delivery';
import { call, eventually, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0045 drops service.deliveries' foreign keys to messages (message_id, created_at) and to webhooks (its
// partitions' clones with them): a store of the release before (up to 0044) keeps every message, delivery and attempt.
// Its delivered message reads with its delivery and attempt, its pending delivery is claimed with its message's payload
// and sent, a message made now is delivered, and no foreign key is left from deliveries or any of its partitions.

const NAME = 'old-deliveries-keys-0044';
const ACCOUNT = '00000000-0000-4000-8000-00000000a044';
const WEBHOOK = `ep_${'olddeliverykeys0044'.padEnd(27, '0')}`;
const SECRET = `whsec_${Buffer.alloc(24, 44).toString('base64')}`;
const receiver = await startReceiver();
const endpoint = receiver.endpoint();
endpoint.expectSecrets(SECRET);
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;
const DONE = { message: id27('msg_', 'oldkeys0044done'), delivery: '00000000-0000-4000-8000-0000000c0440', attempt: id27('atmpt_', 'oldkeys0044') };
const PENDING = { message: id27('msg_', 'oldkeys0044wait'), delivery: '00000000-0000-4000-8000-0000000c0441' };
const message = (m: { message: string }, n: number, at: string) =>
  `('${m.message}', '${ACCOUNT}', 'evt_${m.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":${n}}}', ${at})`;

const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', '${SECRET}');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ${message(DONE, 1, "now() - interval '3 hours'")}, ${message(PENDING, 2, "now() - interval '2 hours'")};
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at)
    select '${DONE.delivery}'::uuid, id, '${WEBHOOK}', account_id, 'grant.succeeded', 'success', 1, 1, null::timestamptz, created_at from service.messages where id = '${DONE.message}'
    union all
    select '${PENDING.delivery}'::uuid, id, '${WEBHOOK}', account_id, 'grant.succeeded', 'pending', 0, 0, created_at, created_at from service.messages where id = '${PENDING.message}';
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type) values
    ('${DONE.attempt}', '${DONE.delivery}', '${DONE.message}', '${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', now() - interval '3 hours' + interval '1 second', 'success', 200, 5, 'ok', 'scheduled');`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0045: the deliveries of the release before keep their messages, webhooks and attempts without foreign keys; a pending one is sent',
    release: '0044_delivery_queue_by_key',
    accounts: [NAME],
    rows,
    close: () => receiver.close(),
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      await eventually(async () => endpoint.requests().some((r) => JSON.parse(r.body).data?.n === 2), 30_000, 'the old pending delivery to arrive');
      await messageWhen(app, bearer, WEBHOOK, PENDING.message, 'success');
      for (const [id, n] of [
        [DONE.message, 1],
        [PENDING.message, 2],
      ] as const) {
        const r = await call(app, 'GET', `/v1/messages/${id}`, { token: bearer });
        assert.equal(r.status, 200, `${id}: ${r.text}`);
        assert.equal(r.body.payload.data.n, n);
        assert.deepEqual(
          r.body.deliveries.map((d: { webhookId: string; status: string }) => [d.webhookId, d.status]),
          [[WEBHOOK, 'success']],
        );
      }
      assert.deepEqual(
        (await attemptsOf(app, bearer, WEBHOOK, DONE.message)).map((a) => a.id),
        [DONE.attempt],
      );
      const fresh = await sendTest(app, bearer, WEBHOOK);
      await messageWhen(app, bearer, WEBHOOK, fresh, 'success');
      assert.deepEqual(
        endpoint.requests().map((r) => JSON.parse(r.body).data?.n ?? 'test'),
        [2, 'test'],
        'the pending one and the new one were sent, the delivered one not again',
      );
      assert.ok(endpoint.requests().every((r) => r.verified));

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => ({
        pairs: await query<{ message: string; webhook: string; same: boolean }>(
          `select d.message_id as message, d.webhook_id as webhook, d.created_at = m.created_at as same
             from service.deliveries d join service.messages m on m.id = d.message_id where d.account_id = $1 order by d.created_at`,
          [ACCOUNT],
        ),
        keys: await query<{ on: string; name: string }>(
          `select conrelid::regclass::text as on, conname as name from pg_constraint
            where contype = 'f' and (conrelid = 'service.deliveries'::regclass
               or conrelid in (select inhrelid from pg_inherits where inhparent = 'service.deliveries'::regclass))`,
        ),
        secretKeys: await query<{ name: string }>(
          `select conname as name from pg_constraint where contype = 'f' and conrelid = 'service.webhook_secrets'::regclass`,
        ),
      }));
      assert.deepEqual(
        look.pairs.map((p) => [p.message, p.webhook, p.same]),
        [
          [DONE.message, WEBHOOK, true],
          [PENDING.message, WEBHOOK, true],
          [fresh, WEBHOOK, true],
        ],
        'each delivery with its message, at its time',
      );
      assert.deepEqual(look.keys, [], 'deliveries and its partitions reference nothing');
      assert.deepEqual(look.secretKeys, [{ name: 'webhook_secrets_webhook_id_webhooks_id_fk' }], "the webhooks' other keys stay");
    },
  },
];
