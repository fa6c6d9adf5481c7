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
      // An arrival now: the receiver holds no secret, so it cannot verify — troubled, counted in this hour.
      const res = await fetch(`${app.baseUrl}/ingest/old-trouble`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      assert.equal(res.status, 200, await res.text());
      // Then one read (on the embedded store each read restarts the app): the troubled receipts of the
      // old store (before the app first answered) and since, against the hours, hour by hour.
      type TCount = { n: number; ua: number };
      const [read] = await queryAppDb<{ old: TCount; since: TCount; hours: number; differing: unknown[] | null }>(
        app,
        `with troubled as (select received_at, response_status between 200 and 299 as ua from console.receipts
                            where receiver_id = $1 and (verdict <> 'valid' or response_status not between 200 and 299)),
              per_hour as (select console.trouble_hour(received_at) as hour, count(*)::int as n, (count(*) filter (where ua))::int as ua from troubled group by 1),
              rolled as (select hour, failures as n, unverified_accepted as ua from console.receipt_trouble_hours where receiver_id = $1)
         select (select json_build_object('n', count(*), 'ua', count(*) filter (where ua)) from troubled where received_at < $2) as old,
                (select json_build_object('n', count(*), 'ua', count(*) filter (where ua)) from troubled where received_at >= $2) as since,
                (select count(*)::int from rolled) as hours,
                (select json_agg(json_build_object('hour', coalesce(p.hour, r.hour), 'receipts', p.n, 'rolled', r.n))
                   from per_hour p full join rolled r on r.hour = p.hour where p.n is distinct from r.n or p.ua is distinct from r.ua) as differing`,
        [A, app.readyAt],
      );
      assert.ok(read.old.n > 100 && read.old.ua > 20, JSON.stringify(read.old));
      assert.deepEqual(read.since, { n: 1, ua: 1 }, 'the arrival is troubled');
      assert.equal(read.differing, null, 'every troubled receipt of the old store counted in its hour, and the arrival in this one');
      assert.ok(read.hours >= 80, `spread over the hours: ${read.hours}`);
    },
  },
];
