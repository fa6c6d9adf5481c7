import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { call, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0046 drops console.receipts' foreign key to console.receivers (and its partitions' clones with it): a store
// of the release before (up to 0045) keeps every receipt and its forward. The receiver's log reads them, an arrival now
// is stored beside them, no foreign key is left from receipts or any of its partitions, and forwards keep theirs.

const R = '00000000-0000-4000-8000-00000000a046';
const SLUG = 'old-receipts-key-0045';

const rows = `
  insert into console.receivers (id, slug, name) values ('${R}', '${SLUG}', 'old receipts with a key');
  insert into console.receipts (receiver_id, method, path, headers, body, body_size, verdict, response_status, message_id)
  select '${R}', 'POST', '/ingest/${SLUG}', '[]'::jsonb, convert_to('{"k":' || k || '}', 'UTF8'), 8, 'no secret configured', 200, 'msg_old0045_' || k
    from generate_series(1, 3) k;
  insert into console.forwards (receipt_id, actor, url, mode, method, sent_headers, status, elapsed_ms)
  select id, 'old@example.org', 'http://127.0.0.1:9/', 'verbatim', 'POST', '[]'::jsonb, 0, 3
    from console.receipts where receiver_id = '${R}' and message_id = 'msg_old0045_2';`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0046: the receipts of the release before keep their receiver and forwards without a key to receivers; an arrival is stored beside them',
    release: '0045_deliveries_no_foreign_keys',
    rows,
    check: async (app) => {
      const res = await fetch(`${app.baseUrl}/ingest/${SLUG}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"k":4}' });
      assert.equal(res.status, 200, await res.text());
      const log = await call(app, 'GET', `/api/receivers/${R}/receipts`, { headers: { cookie: await adminCookieOnce(app) } });
      assert.equal(log.status, 200, log.text);
      assert.deepEqual(
        (log.body.results as { bodyText: string }[]).map((x) => x.bodyText).reverse(),
        ['{"k":1}', '{"k":2}', '{"k":3}', '{"k":4}'],
        "the receiver's log: the three old receipts, then the new one",
      );

      const look = await withAppDb(app, async (query) => ({
        receipts: await query<{ messageId: string | null; forwards: number }>(
          `select r.message_id as "messageId", (select count(*)::int from console.forwards f where f.receipt_id = r.id) as forwards
             from console.receipts r where r.receiver_id = $1 order by r.id`,
          [R],
        ),
        keys: await query<{ on: string; name: string }>(
          `select conrelid::regclass::text as on, conname as name from pg_constraint
            where contype = 'f' and (conrelid = 'console.receipts'::regclass
               or conrelid in (select inhrelid from pg_inherits where inhparent = 'console.receipts'::regclass))`,
        ),
        forwardKeys: await query<{ name: string }>(
          `select conname as name from pg_constraint where contype = 'f' and conrelid = 'console.forwards'::regclass and conparentid = 0`,
        ),
      }));
      assert.deepEqual(
        look.receipts.map((r) => [r.messageId, r.forwards]),
        [
          ['msg_old0045_1', 0],
          ['msg_old0045_2', 1],
          ['msg_old0045_3', 0],
          [null, 0],
        ],
        'every receipt kept, its forward with it, the arrival after them',
      );
      assert.deepEqual(look.keys, [], 'receipts and its partitions reference nothing');
      assert.deepEqual(look.forwardKeys, [{ name: 'forwards_receipt_id_receipts_id_fk' }], "forwards' key to receipts stays");
    },
  },
];
