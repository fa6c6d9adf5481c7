import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import { eventually } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0042 indexes service.idempotency_keys by created_at, and the service's purge deletes the keys past their
// 24-hour window (lib/service/retention/expire-idempotency-keys.ts); before, an expired key left only when the same key
// came again, so a store of the release before holds every key it was ever sent. Those past the window go at the first
// pass; one in its window stays, its stored answer intact.

const CONNECT = 'cn_oldkeys0041';
export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0042: a store of the release before keeps its idempotency key in the window, and the purge deletes those past it',
    release: '0041_delivery_queue',
    rows: `insert into service.idempotency_keys (connect_id, key, request_hash, status_code, body, created_at) values
      ('${CONNECT}', 'in-window', 'h1', 201, '{"id":"kept"}', now() - interval '1 hour'),
      ('${CONNECT}', 'a-day-old', 'h2', 201, '{"id":"gone"}', now() - interval '25 hours'),
      ('${CONNECT}', 'last-year', 'h3', 201, '{"id":"gone"}', now() - interval '300 days');`,
    check: async (app) => {
      // Looked at in the store (its own record, whatever process purged): on the embedded store a look restarts the app,
      // which starts a pass 2 s later, so the looks are 5 s apart.
      const look = () =>
        withAppDb(app, async (query) => ({
          keys: await query<{ key: string; body: unknown }>(`select key, body from service.idempotency_keys where connect_id = $1 order by key`, [CONNECT]),
          index: await query<{ name: string }>(
            `select indexname as name from pg_indexes where schemaname = 'service' and tablename = 'idempotency_keys' and indexname like '%created_at%'`,
          ),
        }));
      const after = await eventually(
        async () => {
          const now = await look();
          if (now.keys.length > 1) await new Promise((r) => setTimeout(r, 5000));
          return now.keys.length <= 1 && now;
        },
        90_000,
        'the purge to delete the expired keys',
      );
      assert.deepEqual(after.keys, [{ key: 'in-window', body: { id: 'kept' } }]);
      assert.equal(after.index.length, 1, 'the created_at index');
    },
  },
];
