// Own app: an old database (0012) archived and purged with retention of seconds and ARCHIVE_DIR, killed -9 mid-purge, its store read behind its back; not a step of the walked upgrade app (tests/upgrade/), whose other steps' bodies 5 s of retention would purge and whose app must not be killed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { queryAppDb, startApp, type TApp } from '../helpers/app';
import { call, eventually, sleep, staffCookie } from '../helpers/http';
import { lastStart, openAsAnEarlierRelease, openToOthers } from '../helpers/file-modes';
import { databaseAt } from '../helpers/old-database';

// Archive before purge: with ARCHIVE_DIR, every body the purge of either half takes is first in a
// daily gzip NDJSON file (receipts-, messages-, attempts-<day>.ndjson.gz) that `zcat` reads, exactly
// as it was stored (its SHA-256 is the one the skeleton keeps), and the manifests count each file
// and hash it when a pass ends. A kill -9 in the middle of the purge loses nothing: after the restart every purged
// body is in the archive (a batch may be there twice; never missing). The archive holds donors'
// data: ARCHIVE_DIR is made 0700 and its files 0600, and loosened modes are corrected at the next start.

const ACCOUNT = '88888888-8888-4888-8888-888888888888';
const WEBHOOK = `ep_${'arc'.padEnd(26, '0')}1`;
const RECEIVER = '99999999-9999-4999-8999-999999999999';
const RECEIPTS = 2500;
const MESSAGES = 60;
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const SEED = `
  insert into service.accounts (id, name) values ('${ACCOUNT}', 'sandbox');
  insert into service.webhooks (id, account_id, url, event_types) values ('${WEBHOOK}', '${ACCOUNT}', 'http://127.0.0.1:9/x', '{grant.succeeded}');
  insert into service.messages (id, account_id, event_id, event_type, payload, created_at)
    select 'msg_arc' || lpad(g::text, 24, '0'), '${ACCOUNT}', 'evt_arc' || g, 'grant.succeeded',
           json_build_object('type', 'grant.succeeded', 'data', json_build_object('email', 'donor' || g || '@example.org', 'note', 'café ☕ ' || g))::text,
           now() - interval '2 hours' - g * interval '1 second'
      from generate_series(1, ${MESSAGES}) as g;
  insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, created_at)
    select id, '${WEBHOOK}', '${ACCOUNT}', 'grant.succeeded', 'success', 1, created_at from service.messages;
  insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
    select 'atmpt_' || substr(d.message_id, 5), d.id, d.message_id, d.webhook_id, d.account_id, 'http://127.0.0.1:9/x', d.created_at, 'success', 200, 5,
           'thanks, ' || d.message_id, 'scheduled'
      from service.deliveries d;
  insert into console.receivers (id, slug, name) values ('${RECEIVER}', 'archive', 'archive');
  -- every tenth body is not UTF-8 (bytes as they came): the archive keeps bytes, not text
  insert into console.receipts (receiver_id, method, path, headers, body, body_utf8, body_size, received_at, message_id, verdict, response_status)
    select '${RECEIVER}', 'POST', '/p/' || g, ('[["content-type","application/json"],["x-donor","donor' || g || '@example.org"]]')::jsonb,
           convert_to('{"n":' || g || ',"who":"dönor ' || g || '"}', 'UTF8') || case when g % 10 = 0 then '\\x00ff'::bytea else ''::bytea end,
           g % 10 <> 0, 30, now() - interval '1 hour', 'msg_bulk' || g, 'valid', 200
      from generate_series(1, ${RECEIPTS}) as g;
  -- older than RECEIPT_RETENTION: its body is archived (then its row goes). 4 days: with a retention of a day or more, rows
  -- go at the start of the day an hour before their cutoff (receiptRowsRetentionMs), and in the first hour of a UTC day
  -- one 3 days old was not yet due (red every night from 00:00 to 01:00).
  insert into console.receipts (receiver_id, method, path, headers, body, body_size, received_at, message_id, verdict, response_status)
    values ('${RECEIVER}', 'POST', '/p/ancient', '[]', convert_to('ancient body', 'UTF8'), 12, now() - interval '4 days', 'msg_ancient', 'valid', 200);`;

type TLine = Record<string, unknown> & { id: string | number; purged: string };

describe('archive before purge, through a kill -9', () => {
  let app: TApp;
  let cookie: string;
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'gc-archive-')), 'archive'); // the app makes it
  /** The archive, and the embedded store when the app is on one. */
  const privateFolders = () => [dir, ...(app.env.DATABASE_URL ? [] : [app.env.DATA_DIR])];

  before(async () => {
    const store = await databaseAt('0012_attempt_rollups', SEED);
    app = await startApp({
      env: {
        ...store,
        ARCHIVE_DIR: dir,
        RECEIPT_BODY_RETENTION: '5s',
        MESSAGE_PAYLOAD_RETENTION: '5s',
        RECEIPT_RETENTION: '2d',
        MESSAGE_RETENTION: '2d',
        RETENTION_HOLD_MAX: '1d',
        RETENTION_BATCH_ROWS: '20',
      },
    });
    cookie = await staffCookie(app);
  });
  after(async () => {
    await app?.destroy();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  });

  const kinds = async () => (await call(app, 'GET', '/api/retention', { headers: { cookie } })).body.kinds as { what: string; purged: number; due: number }[];
  const kind = async (what: string) => (await kinds()).find((k) => k.what === what)!;

  const day = new Date().toISOString().slice(0, 10);
  /** A kind's file of today through `zcat`, checked against its manifest. */
  const read = (kindName: string): TLine[] => {
    const name = `${kindName}-${day}.ndjson.gz`;
    const file = path.join(dir, name);
    const text = execFileSync('zcat', [file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as TLine);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, `manifest-${kindName}.json`), 'utf8'));
    const bytes = fs.readFileSync(file);
    assert.deepEqual(manifest.files[name], { records: lines.length, bytes: bytes.length, sha256: sha(bytes) }, `the manifest of ${name}`);
    return lines;
  };

  test('every purged body is in the archive as stored; the manifests agree; zcat reads it', async () => {
    let midway = 0;
    for (const deadline = Date.now() + 30_000; midway === 0 && Date.now() < deadline;) {
      midway = (await kind('receipt_bodies')).purged;
      if (!midway) await sleep(20);
    }
    assert.ok(midway > 0 && midway < RECEIPTS, `killed half way (${midway} of ${RECEIPTS})`);
    await app.kill();
    // As an earlier release left them (files 0666, folders 0777): the next start corrects them, in one line.
    for (const folder of privateFolders()) openAsAnEarlierRelease(folder);
    await app.restart();
    const corrected = lastStart(app.logs())
      .split('\n')
      .filter((l) => /^Made private what other local accounts could reach/.test(l));
    assert.equal(corrected.length, 1, lastStart(app.logs()));
    assert.ok(corrected[0].includes(`ARCHIVE_DIR ${dir}: `), corrected[0]);
    if (!app.env.DATABASE_URL) assert.ok(corrected[0].includes(`DATA_DIR ${app.env.DATA_DIR}: `), corrected[0]);
    cookie = await staffCookie(app);
    await eventually(
      async () => {
        const all = await kinds();
        // A pass that ended hashed its files: every manifest entry has its SHA-256.
        const sealed = ['receipts', 'messages', 'attempts'].every((k) => {
          const m = path.join(dir, `manifest-${k}.json`);
          return (
            fs.existsSync(m) && Object.values(JSON.parse(fs.readFileSync(m, 'utf8')).files as Record<string, { sha256: string | null }>).every((e) => e.sha256)
          );
        });
        return sealed && all.every((k) => k.due === 0) && all.find((k) => k.what === 'receipts')!.purged === 1;
      },
      240_000,
      'the purge to finish after the restart and its passes to end',
    ); // past 90 s at CI's load (~20)

    const files = fs.readdirSync(dir).sort();
    assert.deepEqual(openToOthers(...privateFolders()), [], "the archive and the store are the account's alone");
    for (const kindName of ['attempts', 'messages', 'receipts']) {
      assert.ok(files.includes(`${kindName}-${day}.ndjson.gz`), `${kindName}-${day}.ndjson.gz in ${files.join(' ')}`);
      assert.ok(files.includes(`manifest-${kindName}.json`));
    }
    const receipts = read('receipts');
    const messages = read('messages');
    const attempts = read('attempts');

    // What the skeletons kept, to compare with the archive.
    const db = await queryAppDb<{ what: string; id: string; sha256: string }>(
      app,
      `select 'receipt' as what, id::text as id, body_sha256 as sha256 from console.receipts where body_purged_at is not null
       union all select 'message', id, (payload::jsonb)->'purged'->>'sha256' from service.messages where payload_purged_at is not null
       union all select 'attempt', id, response_sha256 from service.attempts where response_purged_at is not null`,
    );
    const byKind = (what: string) => new Map(db.filter((r) => r.what === what).map((r) => [r.id, r.sha256]));
    const purgedReceipts = byKind('receipt');
    assert.equal(purgedReceipts.size, RECEIPTS, 'every bulk body purged (the ancient row is gone)');
    assert.equal(byKind('message').size, MESSAGES);
    assert.equal(byKind('attempt').size, MESSAGES);

    const archived = new Map<string, string>();
    for (const r of receipts) {
      const hash = sha(Buffer.from(r.body as string, 'base64'));
      assert.equal(hash, r.bodySha256, `receipt ${r.id}: the archived body is the one hashed`);
      archived.set(String(r.id), hash);
    }
    for (const [id, hash] of purgedReceipts) assert.equal(archived.get(id), hash, `receipt ${id} is in the archive as it was stored`);
    assert.ok(
      receipts.some((r) => r.path === '/p/ancient' && r.purged === 'body'),
      'the ancient receipt’s body, archived before its row went',
    );
    assert.ok(receipts.length - archived.size <= 20, `at most the batch in flight at the kill twice (${receipts.length - archived.size} repeated)`);
    const sample = receipts.find((r) => r.path === '/p/7')!;
    assert.deepEqual(
      sample.headers,
      [
        ['content-type', 'application/json'],
        ['x-donor', 'donor7@example.org'],
      ],
      'every header, before the cut',
    );

    const messageHashes = new Map(messages.map((m) => [m.id as string, sha(m.payload as string)]));
    for (const [id, hash] of byKind('message')) assert.equal(messageHashes.get(id), hash, `message ${id}: its payload, as stored`);
    assert.match(messages[0].payload as string, /café ☕/);
    const attemptHashes = new Map(attempts.map((a) => [a.id as string, sha(a.response as string)]));
    for (const [id, hash] of byKind('attempt')) assert.equal(attemptHashes.get(id), hash, `attempt ${id}: its answer, as stored`);
  });

  test('a donor erasure rewrites the archived files without the donor', async () => {
    const DONOR = 'donor7@example.org';
    const before = Object.fromEntries(['receipts', 'messages', 'attempts'].map((k) => [k, read(k)]));
    const res = await call(app, 'POST', '/api/erasures', { body: { email: DONOR.toUpperCase() }, headers: { cookie } });
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.console.archivedReceipts >= 1, JSON.stringify(res.body.console));
    for (const k of ['receipts', 'messages', 'attempts']) {
      const after = read(k);
      assert.equal(after.length, before[k].length, `${k}: every record stays, as a skeleton when erased`);
      assert.ok(!JSON.stringify(after).toLowerCase().includes(DONOR), `${k}: the donor is in no archived record`);
      const text = execFileSync('zcat', [path.join(dir, `${k}-${day}.ndjson.gz`)], { encoding: 'utf8', maxBuffer: 64 << 20 });
      assert.ok(!text.toLowerCase().includes(DONOR), `${k}: nor anywhere in the file`);
    }
    const receipt = read('receipts').find((r) => r.path === '/p/7')!;
    assert.equal(receipt.body, undefined);
    assert.equal(receipt.headers, undefined);
    assert.match(String(receipt.erased), /^\d{4}-\d\d-\d\dT/);
    assert.equal(receipt.bodySha256, before.receipts.find((r) => r.path === '/p/7')!.bodySha256, 'the hash of what was there stays');
    const message = read('messages').find((m) => m.id === `msg_arc${'7'.padStart(24, '0')}`)!;
    assert.equal(message.payload, undefined);
    assert.ok(message.erased && message.sha256);
    assert.ok(read('receipts').find((r) => r.path === '/p/8')!.body, 'another donor is left alone');
    const again = await call(app, 'POST', '/api/erasures', { body: { email: DONOR }, headers: { cookie } });
    assert.equal(again.body.console.archivedReceipts, 0, 'a second request finds nothing left');
    assert.deepEqual(openToOthers(dir), [], 'the rewritten files are private too');
  });
});
