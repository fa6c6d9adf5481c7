import assert from 'node:assert/strict';
import { queryAppDb } from '../helpers/app';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0029 (the hourly counts of troubled arrivals, tests/integration/receipt-trouble-hours.test.ts)
// on a database of the previous release: its troubled receipts are counted per hour when it opens,
// and new arrivals add to them. The receipts counted are this step's receiver's only (other steps'
// receipts are in the walked database too).

const A = '00000000-0000-4000-8000-00000000a029';

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0029 on a database of the previous release: its troubled receipts are counted per hour when it opens, and new arrivals add to them',
    release: '0028_staff_theme',
    rows: `insert into console.receivers (id, slug, name) values ('${A}', 'old-trouble', 'old');
         insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, received_at)
         select '${A}', 'POST', '/ingest/old-trouble', '[]'::jsonb, 0, case when k % 4 = 0 then 'invalid' else 'valid' end,
                case when k % 3 = 0 then 502 else 200 end, now() - k * interval '13 minutes'
           from generate_series(0, 400) k;`,
    check: async (app) => {
      const counted = `select count(*)::int as n, (count(*) filter (where response_status between 200 and 299))::int as ua from console.receipts
                        where receiver_id = '${A}' and (verdict <> 'valid' or response_status not between 200 and 299)`;
      const hours = `select sum(failures)::int as n, sum(unverified_accepted)::int as ua, count(*)::int as hours from console.receipt_trouble_hours where receiver_id = '${A}'`;
      // One read of both (on the embedded store each read restarts the app).
      const [{ before, rolled }] = await queryAppDb<{ before: { n: number; ua: number }; rolled: { n: number; ua: number; hours: number } }>(
        app,
        `select (select row_to_json(c) from (${counted}) c) as before, (select row_to_json(h) from (${hours}) h) as rolled`,
      );
      assert.ok(before.n > 100 && before.ua > 20, JSON.stringify(before));
      assert.deepEqual([rolled.n, rolled.ua], [before.n, before.ua], 'every troubled receipt of the old store counted');
      assert.ok(rolled.hours >= 80, `spread over the hours: ${rolled.hours}`);
      // An arrival now: the receiver holds no secret, so it cannot verify — troubled, counted in this hour.
      const res = await fetch(`${app.baseUrl}/ingest/old-trouble`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      assert.equal(res.status, 200, await res.text());
      const [after] = await queryAppDb<{ n: number; ua: number }>(app, hours);
      assert.deepEqual([after.n, after.ua], [before.n + 1, before.ua + 1]);
    },
  },
];
