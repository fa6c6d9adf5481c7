import assert from 'node:assert/strict';
import { eventually, adminCookieOnce } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0017 (the receipt stream's cursor, tests/integration/listen.test.ts) on a database of the
// previous release: its receipts stream from the first, in id order, and new ones follow them.

const RECEIVER = '00000000-0000-4000-8000-00000000a016';

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0017 on a database of the previous release: its receipts stream from the first, in id order, and new ones follow them',
    release: '0016_receipt_forwards',
    rows: `insert into console.receivers (id, slug, name) values ('${RECEIVER}', 'old-one', 'Old');
      insert into console.receipts (receiver_id, method, path, headers, body, body_size, verdict, response_status, message_id)
      select '${RECEIVER}', 'POST', '/ingest/old-one', '[]', convert_to('{}', 'UTF8'), 2, 'valid', 200, 'msg_old_' || n from generate_series(1, 3) n;`,
    check: async (app) => {
      const cookie = await adminCookieOnce(app);
      const ac = new AbortController();
      const res = await fetch(`${app.baseUrl}/api/receivers/old-one/stream?after=0`, { headers: { cookie, accept: 'text/event-stream' }, signal: ac.signal });
      assert.equal(res.status, 200);
      let text = '';
      const reading = (async () => {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += Buffer.from(chunk).toString();
      })().catch(() => {});
      try {
        await eventually(async () => (text.match(/event: receipt/g) ?? []).length === 3, 10_000, 'the old receipts');
        await fetch(`${app.baseUrl}/ingest/old-one`, { method: 'POST', headers: { 'webhook-id': 'msg_new_1' }, body: '{}' }).then((r) => r.arrayBuffer());
        await eventually(async () => (text.match(/event: receipt/g) ?? []).length === 4, 10_000, 'the new one');
        const ids = [...text.matchAll(/"messageId":"(msg_[a-z]+_\d)"/g)].map((m) => m[1]);
        assert.deepEqual(ids, ['msg_old_1', 'msg_old_2', 'msg_old_3', 'msg_new_1']);
      } finally {
        ac.abort();
        await reading;
      }
    },
  },
];
