import assert from 'node:assert/strict';
import { call, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0006 (a receipt's duplicate flag derived when read, no longer stored) on a receiver of
// the release before it: every receipt opens intact, and the flags come out as they were stored.
// (From receiver.test.ts.)

const RECEIVER = '6a1f6a8e-2a4b-4c55-9d57-0a0b0c0d0e0f';
const SLUG = 'dup-stored-by-0005'; // its own slug: slugs are unique in the walked database

const receipt = (status: number, duplicate: boolean, body: string) =>
  `insert into console.receipts (receiver_id, method, path, headers, body, body_size, message_id, verdict, duplicate, response_status) values ('${RECEIVER}', 'POST', '/ingest/${SLUG}', '[["webhook-id","msg_old"]]', convert_to('${body}', 'UTF8'), ${body.length}, 'msg_old', 'no secret configured', ${duplicate}, ${status});`;

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0006: a receiver of the release before opens with every receipt intact, and the stored duplicate flags come out the same',
    release: '0005_one_active_signing_key',
    rows: [
      `insert into console.receivers (id, slug, name) values ('${RECEIVER}', '${SLUG}', 'made by 0005');`,
      receipt(500, false, '{"try":1}'),
      receipt(200, false, '{"try":2}'),
      receipt(200, true, '{"try":3}'),
    ].join('\n'),
    check: async (app) => {
      const res = await call(app, 'GET', `/api/receivers/${RECEIVER}/receipts`, { headers: { cookie: await adminCookieOnce(app) } });
      assert.equal(res.status, 200, res.text);
      const rows = (res.body.results as { bodyText: string; duplicate: boolean; responseStatus: number }[]).reverse();
      assert.deepEqual(
        rows.map((x) => [x.bodyText, x.responseStatus, x.duplicate]),
        [
          ['{"try":1}', 500, false],
          ['{"try":2}', 200, false],
          ['{"try":3}', 200, true],
        ],
      );
    },
  },
];
