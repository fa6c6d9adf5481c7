import assert from 'node:assert/strict';
import { call, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0011 (the address a receipt came to) on receipts of the release before it: they open
// intact, with no host, and still count as their receiver's. (From receiver-addresses.test.ts.)

const RECEIVER = '3f1b2c4d-0000-4000-8000-000000000011';

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0011: receipts stored before it open intact, with no host, and still count as the receiver’s',
    release: '0010_recover_runs_and_audit_log',
    rows: [
      `insert into console.receivers (id, slug, name) values ('${RECEIVER}', 'before-hosts', 'made by 0010');`,
      `insert into console.receipts (receiver_id, method, path, headers, body, body_size, message_id, verdict, response_status) values ('${RECEIVER}', 'POST', '/ingest/before-hosts', '[["host","localhost:3000"],["webhook-id","msg_0010"]]', convert_to('{"n":1}', 'UTF8'), 7, 'msg_0010', 'valid', 200);`,
    ].join('\n'),
    check: async (app) => {
      const res = await call(app, 'GET', `/api/receivers/${RECEIVER}/receipts`, { headers: { cookie: await adminCookieOnce(app) } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.results.map((r: { bodyText: string; messageId: string; verdict: string; duplicate: boolean }) => [
          r.bodyText,
          r.messageId,
          r.verdict,
          r.duplicate,
        ]),
        [['{"n":1}', 'msg_0010', 'valid', false]],
      );
    },
  },
];
