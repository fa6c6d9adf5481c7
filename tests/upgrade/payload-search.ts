import assert from 'node:assert/strict';
import { queryAppDb } from '../helpers/app';
import { call, eventually, adminCookieOnce, token } from '../helpers/http';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Payload search after an upgrade (tests/integration/payload-search.test.ts): at 0019 with rows as that
// release wrote them (the jsonb, no stored words) and rows as 0019's migration left older ones (no jsonb
// yet): both are found after the upgrade (migrations 0019's backfill and 0020's words).

type THit = { messageId: string | null; matchedIn: string[] };
const RECEIVER = '00000000-0000-4000-8000-00000000a018';
// The sandbox account, as the app will find it: the console searches the messages of its environment's
// account. This step's rows make it, as the release did; no other step's rows may.
const ACCOUNT = '00000000-0000-4000-8000-00000000b018';

export const steps: TUpgradeStep[] = [
  {
    name: 'payload search after an upgrade: receipts and messages stored before migrations 0019 and 0020 are made searchable',
    release: '0019_payload_search',
    rows: `insert into console.receivers (id, slug, name) values ('${RECEIVER}', 'old-search', 'Old');
         insert into console.receipts (receiver_id, method, path, headers, body, body_utf8, body_size, verdict, response_status, message_id, received_at, body_json) values
           ('${RECEIVER}', 'POST', '/ingest/old-search', '[]', convert_to('{"memo":"a gift of 0019"}', 'UTF8'), true, 26, 'valid', 200, 'msg_old_0019', now() - interval '3 days', '{"memo":"a gift of 0019"}');
         insert into console.receipts (receiver_id, method, path, headers, body, body_utf8, body_size, verdict, response_status, message_id, received_at) values
           ('${RECEIVER}', 'POST', '/ingest/old-search', '[]', convert_to('{"type":"grant.succeeded","data":{"amount":9191,"memo":"an old gift"}}', 'UTF8'), true, 70, 'valid', 200, 'msg_old_json', now() - interval '2 days'),
           ('${RECEIVER}', 'POST', '/ingest/old-search', '[]', convert_to('not json {', 'UTF8'), true, 10, 'valid', 200, 'msg_old_text', now()),
           ('${RECEIVER}', 'POST', '/ingest/old-search', '[]', '\\xff00'::bytea, false, 2, 'valid', 200, 'msg_old_binary', now());
         -- newer than it: more than the 2000 receipts a search tests one by one, so the indexes are used (and, for words, a day at a time)
         insert into console.receipts (receiver_id, method, path, headers, body, body_utf8, body_size, verdict, response_status, message_id)
         select '${RECEIVER}', 'POST', '/ingest/old-search', '[]', convert_to('{"n":' || n || '}', 'UTF8'), true, 8, 'valid', 200, 'msg_filler_' || n from generate_series(1, 2001) n;
         insert into service.accounts (id, name) values ('${ACCOUNT}', 'sandbox');
         insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
           ('msg_2bOldSearchOldSearchOldSe00', '${ACCOUNT}', 'evt_2bOldSearchOldSearchOldSe00', 'grant.succeeded', '{"type":"grant.succeeded","data":{"amount":9191}}', now());
         insert into service.messages (id, account_id, event_id, event_type, payload, created_at, payload_json) values
           ('msg_2bOldSearchOldSearch0019abc', '${ACCOUNT}', 'evt_2bOldSearchOldSearch0019abc', 'grant.succeeded', '{"memo":"a gift of 0019"}', now(), '{"memo":"a gift of 0019"}');`,
    check: async (app) => {
      const cookie = await adminCookieOnce(app);
      await eventually(
        async () => {
          const res = await call(app, 'GET', `/api/search?q=${encodeURIComponent('data.amount=9191')}`, { headers: { cookie } });
          const found = (res.body.hits ?? []).map((h: THit) => `${h.messageId} ${h.matchedIn.join()}`).sort();
          return found.join(' | ') === 'msg_2bOldSearchOldSearchOldSe00 message | msg_old_json receipt';
        },
        20_000,
        'the old receipt and the old message found',
      );
      const res = await call(app, 'GET', `/api/search?q=${encodeURIComponent('"an old gift"')}`, { headers: { cookie } });
      assert.deepEqual(
        res.body.hits.map((h: THit) => h.messageId),
        ['msg_old_json'],
      );
      // Words of a jsonb that 0019 made: stored by the second phase of the backfill.
      await eventually(
        async () => {
          const r = await call(app, 'GET', `/api/search?q=${encodeURIComponent('"gift of 0019"')}`, { headers: { cookie } });
          return (
            (r.body.hits ?? [])
              .map((h: THit) => `${h.messageId} ${h.matchedIn.join()}`)
              .sort()
              .join(' | ') === 'msg_2bOldSearchOldSearch0019abc message | msg_old_0019 receipt'
          );
        },
        20_000,
        'the 0019 receipt and message found by their words',
      );
      // The old message too, through the API's payload search (same window, the sandbox account).
      const tok = await token(app);
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const found = await call(app, 'GET', `/v1/messages?payloadPath=data.amount&payloadEquals=9191&after=${since}`, { token: tok });
      assert.deepEqual(
        found.body.results.map((m: { id: string }) => m.id),
        ['msg_2bOldSearchOldSearchOldSe00'],
      );
      // Each backfill ends once nothing is pending: every old row looked at once, the text and binary bodies included.
      const backfilled = await eventually(
        async () => {
          const receipts = /receipt body search backfill: (\d+) earlier rows/.exec(app.logs())?.[1];
          const messages = /message payload search backfill: (\d+) earlier rows/.exec(app.logs())?.[1];
          return receipts && messages && { receipts: Number(receipts), messages: Number(messages) };
        },
        10_000,
        'the backfills to end',
      );
      // The walked database holds other steps' old receipts and messages, which the same backfills
      // take: the counts are those of every receipt with a body and every message the app found when
      // it opened (2005 and 2 of this step's own; no step writes rows that were searchable already).
      const [counts] = await queryAppDb<{ receipts: number; messages: number; mine: number }>(
        app,
        `select (select count(*)::int from console.receipts where body is not null and received_at < $1) as receipts,
                (select count(*)::int from service.messages where created_at < $1) as messages,
                (select count(*)::int from console.receipts where receiver_id = $2) as mine`,
        [app.readyAt, RECEIVER],
      );
      assert.equal(counts.mine, 2005);
      assert.deepEqual(backfilled, { receipts: counts.receipts, messages: counts.messages });
    },
  },
];
