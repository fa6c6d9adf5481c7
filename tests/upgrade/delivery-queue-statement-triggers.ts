import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { messageWhen } from '../helpers/delivery';
import { eventually, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0043 makes the delivery queue's triggers on service.deliveries statement triggers over transition tables, in
// place of 0041's row triggers (and their clones on each partition). A store of the release before (up to 0042) keeps its
// queue as its row triggers left it: the due delivery is claimed from it and sent (the new triggers follow the claim and
// the success, and it leaves the queue), the one waiting for its retry stays queued as its delivery reads. Migration 0044
// has the triggers' function reach the queue by its key whatever the sizes it was planned at (no sequential scan): a
// store of 0043 does the same, and after either, the function carries that setting.

const receiver = await startReceiver();
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;

/** The step for a store of `release`, its rows its own (account, webhook, secret and ids numbered `n`). */
function queueStep(n: 42 | 43, release: string, name: string): TUpgradeStep {
  const NAME = `old-deliveries-00${n}`;
  const ACCOUNT = `00000000-0000-4000-8000-00000000a0${n}`;
  const WEBHOOK = `ep_${`olddeliveryqueue00${n}`.padEnd(27, '0')}`;
  const SECRET = `whsec_${Buffer.alloc(24, n).toString('base64')}`;
  const endpoint = receiver.endpoint();
  endpoint.expectSecrets(SECRET);
  const DUE = { message: id27('msg_', `oldqueue00${n}due`), delivery: `00000000-0000-4000-8000-0000000c0${n}0` };
  const RETRY = { message: id27('msg_', `oldqueue00${n}retry`), delivery: `00000000-0000-4000-8000-0000000c0${n}1` };
  const message = (m: { message: string }, k: number) =>
    `('${m.message}', '${ACCOUNT}', 'evt_${m.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":${k}}}', now() - interval '2 hours')`;

  const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', '${SECRET}');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values ${message(DUE, 1)}, ${message(RETRY, 2)};
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at) values
    ('${DUE.delivery}', '${DUE.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'pending', 0, 0, now() - interval '2 hours', now() - interval '2 hours'),
    ('${RETRY.delivery}', '${RETRY.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'pending', 1, 1, now() + interval '1 hour', now() - interval '2 hours');`;

  return {
    name,
    release,
    accounts: [NAME],
    rows,
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      await eventually(async () => endpoint.requests().some((r) => JSON.parse(r.body).data?.n === 1), 30_000, 'the old due delivery to arrive');
      await messageWhen(app, bearer, WEBHOOK, DUE.message, 'success');
      assert.deepEqual(
        endpoint.requests().map((r) => JSON.parse(r.body).data?.n),
        [1],
        'the due one alone was sent',
      );
      assert.ok(endpoint.requests().every((r) => r.verified));

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => ({
        queued: await query<{ id: string; status: string; due: boolean }>(
          `select q.id, q.status, q.next_attempt_at = d.next_attempt_at as due
             from service.delivery_queue q join service.deliveries d on d.id = q.id and d.created_at = q.created_at
            where q.webhook_id = $1 order by q.id`,
          [WEBHOOK],
        ),
        triggers: await query<{ on: string; name: string; per: string }>(
          `select t.tgrelid::regclass::text as on, t.tgname as name, case when t.tgtype & 1 = 1 then 'row' else 'statement' end as per
             from pg_trigger t join pg_inherits i on i.inhrelid = t.tgrelid or t.tgrelid = 'service.deliveries'::regclass
            where i.inhparent = 'service.deliveries'::regclass and t.tgname like 'delivery_queue%'
            group by 1, 2, 3 order by 1, 2`,
        ),
        config: await query<{ config: string[] | null }>(`select proconfig as config from pg_proc where oid = 'service.delivery_queue_sync'::regproc`),
      }));
      assert.deepEqual(look.queued, [{ id: RETRY.delivery, status: 'pending', due: true }], 'the queue holds the one waiting, as its delivery reads');
      assert.deepEqual(
        look.triggers,
        ['delivery_queue_delete', 'delivery_queue_insert', 'delivery_queue_update'].map((name) => ({ on: 'service.deliveries', name, per: 'statement' })),
        "the queue's triggers, once a statement on the partitioned table, none left on its partitions",
      );
      assert.deepEqual(look.config, [{ config: ['enable_seqscan=off'] }], "the triggers' function plans without sequential scans (0044)");
    },
  };
}

export const steps: TUpgradeStep[] = [
  queueStep(
    42,
    '0042_idempotency_keys_expire',
    'migration 0043: the queue a store of the release before kept by row triggers is followed by statement triggers; the due one is sent and leaves it',
  ),
  {
    ...queueStep(43, '0043_delivery_queue_statement_triggers', 'migration 0044: a store of 0043 keeps its queue by key; the due one is sent and leaves it'),
    close: () => receiver.close(),
  },
];
