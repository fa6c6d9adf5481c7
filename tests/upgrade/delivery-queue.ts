import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { messageWhen } from '../helpers/delivery';
import { eventually, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0041 adds the delivery queue (issue 52): service.delivery_queue, the deliveries not settled, kept by triggers
// on the partitioned service.deliveries, where the worker's claim finds the due ones. A store of the release before
// (migrations up to 0040) keeps every delivery, and its queue is filled from them: a delivery pending and due then is
// claimed from the queue and sent; one waiting for a retry an hour away is in the queue, due then, not sent; those
// delivered or failed are not in it. deliveries_due_idx and deliveries_leased_idx, the queue's twins, are gone.

const NAME = 'old-deliveries-0040';
const ACCOUNT = '00000000-0000-4000-8000-00000000a040';
const WEBHOOK = `ep_${'olddeliveryqueue0040'.padEnd(27, '0')}`;
const SECRET = `whsec_${Buffer.alloc(24, 40).toString('base64')}`;
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;
const receiver = await startReceiver();
const endpoint = receiver.endpoint();
endpoint.expectSecrets(SECRET);

// Four messages of the old release, made two hours before the walk: delivered, failed for good, due (its worker never got
// to it before the upgrade), and waiting for its second attempt, an hour after the walk.
const DONE = { message: id27('msg_', 'oldqueue0040done'), delivery: '00000000-0000-4000-8000-0000000c0400' };
const FAILED = { message: id27('msg_', 'oldqueue0040fail'), delivery: '00000000-0000-4000-8000-0000000c0401' };
const DUE = { message: id27('msg_', 'oldqueue0040due'), delivery: '00000000-0000-4000-8000-0000000c0402' };
const RETRY = { message: id27('msg_', 'oldqueue0040retry'), delivery: '00000000-0000-4000-8000-0000000c0403' };

const message = (m: { message: string }, n: number) =>
  `('${m.message}', '${ACCOUNT}', 'evt_${m.message.slice(4)}', 'grant.succeeded', '{"type":"grant.succeeded","data":{"n":${n}}}', now() - interval '2 hours')`;

const rows = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', '${NAME}');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', '${endpoint.url}', '{grant.succeeded}');
  insert into service.webhook_secrets (webhook_id, secret) values ('${WEBHOOK}', '${SECRET}');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ${message(DONE, 1)}, ${message(FAILED, 2)}, ${message(DUE, 3)}, ${message(RETRY, 4)};
  insert into service.deliveries (id, message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at) values
    ('${DONE.delivery}', '${DONE.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, 1, null, now() - interval '2 hours'),
    ('${FAILED.delivery}', '${FAILED.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'failed', 8, 8, null, now() - interval '2 hours'),
    ('${DUE.delivery}', '${DUE.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'pending', 0, 0, now() - interval '2 hours', now() - interval '2 hours'),
    ('${RETRY.delivery}', '${RETRY.message}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'pending', 1, 1, now() + interval '1 hour', now() - interval '2 hours');`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0041: the queue of a store of the release before is its deliveries not settled; the due one is claimed from it and sent, the waiting one stays queued',
    release: '0040_messages_partitioned',
    accounts: [NAME],
    rows,
    close: () => receiver.close(),
    check: async (app) => {
      const bearer = await token(app, app.clients[NAME]);
      await eventually(async () => endpoint.requests().some((r) => JSON.parse(r.body).data?.n === 3), 30_000, 'the old due delivery to arrive');
      await messageWhen(app, bearer, WEBHOOK, DUE.message, 'success');
      assert.deepEqual(
        endpoint.requests().map((r) => JSON.parse(r.body).data?.n),
        [3],
        'the due one alone was sent, signed',
      );
      assert.ok(endpoint.requests().every((r) => r.verified));

      // One look at the store (on the embedded store it restarts the app).
      const look = await withAppDb(app, async (query) => {
        const deliveries = await query<{ id: string; status: string; attempts: number }>(
          `select id, status, attempt_count as attempts from service.deliveries where account_id = $1 order by id`,
          [ACCOUNT],
        );
        const queued = await query<{ id: string; status: string; due: boolean; created: boolean }>(
          `select q.id, q.status, q.next_attempt_at = d.next_attempt_at as due, q.created_at = d.created_at as created
             from service.delivery_queue q join service.deliveries d on d.id = q.id and d.created_at = q.created_at
            where q.webhook_id = $1 order by q.id`,
          [WEBHOOK],
        );
        const indexes = await query<{ name: string }>(
          `select indexname as name from pg_indexes where schemaname = 'service' and tablename = 'deliveries' and indexname in ('deliveries_due_idx', 'deliveries_leased_idx')`,
        );
        return { deliveries, queued, indexes };
      });
      assert.deepEqual(
        look.deliveries.map((d) => [d.id, d.status, d.attempts]),
        [
          [DONE.delivery, 'success', 1],
          [FAILED.delivery, 'failed', 8],
          [DUE.delivery, 'success', 1],
          [RETRY.delivery, 'pending', 1],
        ],
        'every delivery kept, the due one delivered',
      );
      assert.deepEqual(
        look.queued,
        [{ id: RETRY.delivery, status: 'pending', due: true, created: true }],
        'the queue holds the one waiting, as its delivery reads',
      );
      assert.deepEqual(look.indexes, [], "the deliveries' due and leased indexes are gone");
    },
  },
];
