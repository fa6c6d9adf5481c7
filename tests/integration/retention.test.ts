// Own app: an old database (0012) purged with retention of seconds and killed -9 mid-purge, its store read behind its back; not a step of the walked upgrade app (tests/upgrade/), whose other steps' bodies 5 s of retention would purge and whose app must not be killed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { queryAppDb, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { databaseAt } from '../helpers/old-database';

// Retention on a database of the previous release (migration 0012): the new release opens it and
// its worker purges by age with short settings (bodies after 5 s, rows after 2 d, a hold of 1 d).
// A kill -9 in the middle of the purge loses nothing it should keep, and the next start finishes
// it; what an investigation still needs (a failing or pending delivery, a receipt that failed its
// check and was not resolved) keeps its body; every view still answers on a skeleton.

const ACCOUNT = '66666666-6666-4666-8666-666666666666';
const WEBHOOK = `ep_${'ret'.padEnd(26, '0')}1`;
/** An id of the API's shape: the prefix and 27 letters or digits. */
const id27 = (prefix: string, name: string) => `${prefix}${name.padEnd(27, '0')}`;
const M = {
  ok: id27('msg_', 'retok'),
  failing: id27('msg_', 'retfailing'),
  pending: id27('msg_', 'retpending'),
  failedLongAgo: id27('msg_', 'retfailedlongago'),
  ancient: id27('msg_', 'retancient'),
};
const RECEIVER = '77777777-7777-4777-8777-777777777777';
const RECEIPTS = 4000;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const payload = (id: string) => JSON.stringify({ type: 'grant.succeeded', data: { id, email: `donor-${id}@example.org` } });

/** A message `ago` old with one delivery in `status` and one attempt whose response names the donor. */
const message = (id: string, ago: string, status: string) => `
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at) values
    ('${id}', '${ACCOUNT}', 'evt_${id.slice(4)}', 'grant.succeeded', '${payload(id)}', now() - interval '${ago}');
  insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, next_attempt_at, created_at) values
    ('${id}', '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', '${status}', 1, ${status === 'pending' ? "now() + interval '1 day'" : 'null'}, now() - interval '${ago}');
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
    select 'atmpt_${id.slice(4)}', d.id, '${id}', '${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', now() - interval '${ago}',
           '${status === 'success' ? 'success' : 'failed'}', ${status === 'success' ? 200 : 500}, 5, 'answer for ${id}', 'scheduled'
      from service.deliveries d where d.message_id = '${id}';`;

/** A receipt `ago` old with a body that names a donor; its path carries its name, to check its hash by. */
const receipt = (name: string, ago: string, messageId: string, verdict = 'valid', status = 200) => `
  insert into console.receipts (receiver_id, method, path, headers, body, body_size, received_at, message_id, verdict, response_status)
    values ('${RECEIVER}', 'POST', '/p/${name}', '[["content-type","application/json"],["x-donor","${name}@example.org"]]',
            convert_to('body of ${name}', 'UTF8'), 20, now() - interval '${ago}', '${messageId}', '${verdict}', ${status});`;

const SEED = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', 'sandbox');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
  ${message(M.ok, '2 hours', 'success')}
  ${message(M.failing, '2 hours', 'failed')}
  ${message(M.pending, '2 hours', 'pending')}
  ${message(M.failedLongAgo, '36 hours', 'failed')}
  ${message(M.ancient, '3 days', 'success')}
  insert into console.receivers (id, slug, name) values ('${RECEIVER}', 'retention', 'retention');
  insert into console.receipts (receiver_id, method, path, headers, body, body_size, received_at, message_id, verdict, response_status)
    select '${RECEIVER}', 'POST', '/p/bulk' || g, '[["webhook-id","msg_bulk"],["x-donor","bulk@example.org"]]',
           convert_to('body of bulk' || g, 'UTF8'), 16, now() - interval '1 hour', 'msg_bulk' || g, 'valid', 200
      from generate_series(1, ${RECEIPTS}) as g;
  ${receipt('unresolved', '1 hour', 'msg_T', 'invalid signature', 401)}
  ${receipt('resolved-bad', '1 hour', 'msg_R', 'invalid signature', 401)}
  ${receipt('resolved-good', '59 minutes', 'msg_R')}
  ${receipt('troubled-long-ago', '36 hours', 'msg_L', 'valid', 500)}
  -- Past RECEIPT_RETENTION (2d) at any hour: on PostgreSQL (daily partitions) the rows step counts to the start of the day
  -- an hour before the cutoff (receiptRowsRetentionMs), up to 3 days and an hour; a receipt 3 days old was kept from 00:00 to 01:00 UTC.
  ${receipt('ancient', '4 days', 'msg_A')}`;

describe('retention: a previous release purged by age, through a kill -9', () => {
  let app: TApp;
  let cookie: string;
  const metricsToken = 'retention-metrics-token-1234';

  before(async () => {
    const store = await databaseAt('0012_attempt_rollups', SEED);
    app = await startApp({
      env: {
        ...store,
        RECEIPT_BODY_RETENTION: '5s',
        MESSAGE_PAYLOAD_RETENTION: '5s',
        RECEIPT_RETENTION: '2d',
        MESSAGE_RETENTION: '2d',
        RETENTION_HOLD_MAX: '1d',
        RETENTION_BATCH_ROWS: '20', // a pass of 200 batches: long enough to be killed half way
        METRICS_TOKEN: metricsToken,
      },
    });
    cookie = await staffCookie(app);
  });
  after(async () => app?.destroy());

  const status = async () =>
    (await call(app, 'GET', '/api/retention', { headers: { cookie } })).body as { held: number; kinds: { what: string; purged: number; due: number }[] };
  const kind = (s: Awaited<ReturnType<typeof status>>, what: string) => s.kinds.find((k) => k.what === what)!;

  test('a purge killed -9 half way resumes and finishes; skeletons, hashes and held bodies are right', async () => {
    let midway = 0;
    for (const deadline = Date.now() + 30_000; midway === 0 && Date.now() < deadline;) {
      midway = kind(await status(), 'receipt_bodies').purged;
      if (!midway) await sleep(20);
    }
    assert.ok(midway < RECEIPTS, `killed half way (${midway} of ${RECEIPTS} purged)`);
    await app.kill();
    const restarted = Date.now() / 1000;
    await app.restart();
    cookie = await staffCookie(app);
    await eventually(
      async () => {
        const s = await status();
        return kind(s, 'receipt_bodies').due === 0 && kind(s, 'receipts').due === 0 && s.held === 1 && s;
      },
      240_000,
      'the purge to finish after the restart',
    ); // past 60 s beside CI's two other passes (load ~20)

    // Each batch counted once, across the kill: the bulk, the resolved pair, the one held too long, the ancient one.
    const done = await status();
    assert.equal(kind(done, 'receipt_bodies').purged, RECEIPTS + 4);
    assert.equal(kind(done, 'receipts').purged, 1);
    const metrics = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((r) => r.text());
    // This process's count: what it purged after the restart (the service's small purge was done before the kill).
    assert.ok(/gc_purged_total\{what="receipt_bodies"\} [1-9]/.test(metrics), 'gc_purged_total{what="receipt_bodies"} counts');
    // The embedded store has no autovacuum: the pass that finished the purge ends by vacuuming and analyzing the receipts it
    // changed (thousands of dead versions), as /metrics reads pg_stat_user_tables. On PostgreSQL that is autovacuum's, in its time.
    if (!app.env.DATABASE_URL) {
      // The statistics are each partition's since receipts are partitioned (migration 0038): this store's receipts, the
      // previous release's, are all in receipts_p0, which the pass's vacuum of console.receipts reaches.
      const receipts = (text: string, name: string) => Number(new RegExp(`^${name}\\{table="console\\.receipts_p0"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      await eventually(
        async () => {
          const m = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((res) => res.text());
          return (
            receipts(m, 'gc_store_table_last_vacuum_timestamp_seconds') >= restarted &&
            receipts(m, 'gc_store_table_last_analyze_timestamp_seconds') >= restarted &&
            receipts(m, 'gc_store_table_dead_rows') === 0
          );
        },
        20_000,
        'console.receipts vacuumed and analyzed after the purge, its dead rows gone',
      ); // the first minute's upkeep would come later: only the pass's own vacuum is in time
    }

    // The service's views on a skeleton: the purged payload is its tombstone (checked against the OpenAPI document).
    const bearer = await token(app);
    const purged = await call(app, 'GET', `/v1/messages/${M.ok}`, { token: bearer });
    assert.equal(purged.status, 200);
    assert.equal(purged.body.payload.purged.sha256, sha(payload(M.ok)));
    assert.equal(purged.body.payload.purged.retention, '5s');
    assert.equal(purged.body.deliveries[0].status, 'success');
    const attempt = await call(app, 'GET', `/v1/webhooks/${WEBHOOK}/messages/${M.ok}/attempts/atmpt_${M.ok.slice(4)}`, { token: bearer });
    assert.equal(attempt.status, 200);
    assert.equal(attempt.body.response, '');
    assert.equal(attempt.body.responsePurged.sha256, sha(`answer for ${M.ok}`));
    const resend = await call(app, 'POST', `/v1/webhooks/${WEBHOOK}/messages/${M.ok}/resend`, { token: bearer });
    assert.equal(resend.status, 409, 'a purged payload is never sent again');
    const held = await call(app, 'GET', `/v1/messages/${M.failing}`, { token: bearer });
    assert.equal(held.body.payload.data.email, `donor-${M.failing}@example.org`, 'a failing delivery keeps its payload');
    assert.equal((await call(app, 'GET', `/v1/messages/${M.ancient}`, { token: bearer })).status, 404, 'a message past MESSAGE_RETENTION is gone');

    // The console's views: the receipt says what happened to its body; the case still answers.
    const bulk = { id: 7 }; // '/p/bulk7': the bulk went in first, from id 1
    const r = await call(app, 'GET', `/api/receipts/${bulk.id}`, { headers: { cookie } });
    assert.equal(r.status, 200);
    assert.equal(r.body.body, null);
    assert.match(r.body.bodyGone.note, /^body purged on \d{4}-\d\d-\d\d \(retention 5s\)$/);
    assert.deepEqual(r.body.headers, [['webhook-id', 'msg_bulk']], 'only the headers that name the delivery are kept');
    const kase = await call(app, 'GET', `/api/search?q=${M.ok}`, { headers: { cookie } });
    assert.equal(kase.status, 200);
    assert.match(kase.body.messages[0].payloadGone.note, /^payload purged on \d{4}-\d\d-\d\d \(retention 5s\)$/);
    const page = await fetch(`${app.baseUrl}/receipts/${bulk.id}`, { headers: { cookie } }).then((res) => res.text());
    assert.match(page, /body purged on \d{4}-\d\d-\d\d \(retention 5s\)/);
    const admin = await fetch(`${app.baseUrl}/retention`, { headers: { cookie } }).then((res) => res.text());
    assert.match(admin, /Kept for open investigations: <!-- -->1<!-- --> receipt/, 'the admin page shows the held receipt');
    assert.match(admin, /Erase one donor/);

    // In the database: every bulk body gone with its hash right; the held ones kept; the old rows gone.
    const rows = await queryAppDb<Record<string, string | number>>(
      app,
      `select
         (select count(*)::int from console.receipts where path like '/p/bulk%' and body is null
             and body_sha256 = encode(sha256(convert_to('body of bulk' || substr(path, 8), 'UTF8')), 'hex')) as bulk_purged,
         (select count(*)::int from console.receipts where path like '/p/bulk%') as bulk,
         (select convert_from(body, 'UTF8') from console.receipts where path = '/p/unresolved') as unresolved,
         (select count(*)::int from console.receipts where path in ('/p/resolved-bad', '/p/resolved-good', '/p/troubled-long-ago') and body is null) as resolved_purged,
         (select count(*)::int from console.receipts where path = '/p/ancient') as ancient,
         (select count(*)::int from service.messages where payload like '{"purged"%') as payloads_purged,
         (select payload from service.messages where id = '${M.pending}') as pending_payload,
         (select count(*)::int from service.deliveries where message_id = '${M.ancient}') as ancient_deliveries,
         (select count(*)::int from service.attempts where message_id = '${M.ancient}') as ancient_attempts,
         (select response from service.attempts where message_id = '${M.failing}') as failing_response,
         (select string_agg(what || '=' || purged, ' ' order by what) from service.retention_progress where what <> 'pass') as service_progress`,
    );
    assert.deepEqual(rows[0], {
      bulk_purged: RECEIPTS,
      bulk: RECEIPTS,
      unresolved: 'body of unresolved',
      resolved_purged: 3,
      ancient: 0,
      payloads_purged: 2, // msg_ret_ok, and msg_ret_failed_long_ago past RETENTION_HOLD_MAX
      pending_payload: payload(M.pending),
      ancient_deliveries: 0,
      ancient_attempts: 0,
      failing_response: `answer for ${M.failing}`,
      service_progress: 'attempt_responses=3 message_payloads=3 messages=1', // the ancient one's payload and answer went before its row
    });
  });
});
