// Own app: a trigger it adds to the app's database makes writes fail as a full disk would, and an embedded store on a tmpfs it fills.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { freshDataDir, queryAppDb, startApp, type TApp } from '../helpers/app';
import { assertProblem, call, staffCookie, token } from '../helpers/http';

// A store that cannot write (on the embedded store: a full disk) is a 503 with Retry-After: the
// sender tries again, nothing of the request is half-written, and writes resume on their own once
// the store can take them.
// One app for both tests: on the embedded store, where this machine can mount a small tmpfs (root on
// Linux), the app's store is on one, so that the second test fills a real disk; else a fresh store
// (on PostgreSQL with TEST_DATABASE_URL), and the second test is skipped — it is the embedded
// store's whatever the pass, so the PostgreSQL pass would only run the embedded pass's test again.

/** Why the tmpfs test cannot run here, or null when it can. */
function noTmpfs(): string | null {
  if (process.env.TEST_DATABASE_URL) return "the embedded store's alone: the embedded pass runs it";
  if (process.getuid?.() !== 0 || os.platform() !== 'linux') return 'needs root on Linux to mount a small tmpfs; the injected disk_full test covers the answer';
  return null;
}

let app: TApp;
let skipTmpfs: string | null = noTmpfs();
let mountPoint = '';
before(async () => {
  if (!skipTmpfs) {
    mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-full-disk-'));
    try {
      // Room for the store, a second 16 MiB WAL segment and the 48 MiB a start needs: the test fills what is left with a
      // filler, and its last look restarts the app once the filler is gone. At 96 MiB that start found 37 MiB free (the CI
      // rehearsal at e9ce5e7, load ~25), when the writes before it had taken the WAL into its second segment.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint]);
    } catch (err) {
      fs.rmSync(mountPoint, { recursive: true, force: true });
      mountPoint = '';
      skipTmpfs = `cannot mount a tmpfs here (${(err as Error).message.split('\n')[0]})`;
    }
  }
  let onTmpfs: Record<string, string> | undefined;
  if (mountPoint) {
    const store = await freshDataDir();
    onTmpfs = { DATA_DIR: path.join(mountPoint, 'data'), DATABASE_URL: '' };
    fs.cpSync(store.DATA_DIR, onTmpfs.DATA_DIR, { recursive: true });
  }
  app = await startApp({ env: onTmpfs });
});
after(async () => {
  await app?.destroy();
  if (mountPoint) {
    execFileSync('umount', [mountPoint]);
    fs.rmSync(mountPoint, { recursive: true, force: true });
  }
});

async function receiverOf(app: TApp): Promise<string> {
  const cookie = await staffCookie(app);
  const res = await call(app, 'POST', '/api/receivers', { body: { name: 'disk' }, headers: { cookie } });
  assert.equal(res.status, 201, res.text);
  return res.body.slug;
}

const ingest = (app: TApp, slug: string, body: string, query = '') =>
  fetch(`${app.baseUrl}/ingest/${slug}${query}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });

test('a write the database refuses for want of space (disk_full, injected by a trigger) is a 503; nothing of it is stored; the next write works', async () => {
  const tok = await token(app);
  const np = await call(app, 'POST', '/v1/nonprofits', {
    token: tok,
    body: { ein: `46${String(Date.now()).slice(-7)}`, name: 'Disk Food Bank', user: { email: 'ed@example.org' } },
  });
  const connect = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  const apiKey = (await call(app, 'GET', `/v1/connects/${connect.body.id}`, { token: tok })).body.apiKey as string;
  await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: 'http://127.0.0.1:9/hook', eventTypes: ['grant.succeeded'] } });
  const slug = await receiverOf(app);
  // The last part of each write fails as a full disk would: a grant's message (the grant row is in the same statement), a receipt.
  await queryAppDb(
    app,
    // One statement (the embedded store's query is a prepared statement).
    `do $do$ begin
       create function public.gc_disk_full() returns trigger language plpgsql as $f$
         begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $f$;
       create trigger gc_disk_full before insert on service.messages for each row when (new.payload like '%"note":"disk-full"%') execute function public.gc_disk_full();
       create trigger gc_disk_full before insert on console.receipts for each row when (new.query = 'disk-full') execute function public.gc_disk_full();
     end $do$`,
  );
  const grant = (note: string) =>
    call(app, 'POST', '/v1/grants', {
      token: tok,
      headers: { 'x-service-api-key': apiKey },
      body: { amount: 5000, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.org', note },
    });

  const refused = assertProblem(await grant('disk-full'), 503, /database is unavailable/);
  assert.equal(refused.title, 'Service Unavailable');
  const refusedGrant = await grant('disk-full');
  assert.equal(refusedGrant.headers.get('retry-after'), '5');
  assert.equal((await grant('fine')).status, 201, 'the next write works, with nothing done about it');

  const refusedReceipt = await ingest(app, slug, 'hello', '?disk-full');
  assert.equal(refusedReceipt.status, 503, await refusedReceipt.text());
  assert.equal(refusedReceipt.headers.get('retry-after'), '5');
  assert.match(refusedReceipt.headers.get('content-type') ?? '', /problem\+json/);
  assert.equal((await ingest(app, slug, 'hello')).status, 200);

  const [stored] = await queryAppDb<{ grants: number; messages: number; receipts: number }>(
    app,
    `select (select count(*)::int from service.grants where note = 'disk-full') as grants,
            (select count(*)::int from service.messages where payload like '%disk-full%') as messages,
            (select count(*)::int from console.receipts where query = 'disk-full') as receipts`,
  );
  assert.deepEqual(stored, { grants: 0, messages: 0, receipts: 0 }, 'nothing of a refused write was stored');
  assert.doesNotMatch(app.logs(), /\[req_\w+\] /, 'no request logged an error of its own');
  assert.match(app.logs(), /database unavailable \(53100/);
});

test('embedded store on a full disk (a small tmpfs): receipts are refused with 503 and nothing half-written, and accepted again once space is freed', async (t) => {
  if (skipTmpfs) return t.skip(skipTmpfs);
  const slug = await receiverOf(app);
  const free = () => {
    const s = fs.statfsSync(mountPoint);
    return s.bavail * s.bsize;
  };
  const filler = path.join(mountPoint, 'filler');
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, free() - 3 * 1024 * 1024)));

  const acknowledged: number[] = [];
  let refused: Response | null = null;
  for (let i = 0; i < 40 && !refused; i++) {
    const res = await ingest(app, slug, randomBytes(384 * 1024).toString('base64')); // random: nothing to compress (512 KiB)
    if (res.status === 200) acknowledged.push(Number(res.headers.get('x-receipt-id')));
    else refused = res;
  }
  assert.ok(refused, `a full disk refused a receipt (${acknowledged.length} stored first)`);
  assert.equal(refused.status, 503, await refused.clone().text());
  assert.equal(refused.headers.get('retry-after'), '5');
  assert.ok(fs.existsSync(`/proc/${app.pid()}`), 'the app runs on');
  assert.equal((await fetch(`${app.baseUrl}/api/health`)).status, 200);

  fs.rmSync(filler);
  const after = await ingest(app, slug, randomBytes(384 * 1024).toString('base64'));
  assert.equal(after.status, 200, 'accepted again once there is space, without a restart');
  acknowledged.push(Number(after.headers.get('x-receipt-id')));
  // This test's receiver's (the test before wrote receipts of its own on this app).
  const rows = await queryAppDb<{ id: string; size: number }>(
    app,
    'select r.id::text, r.body_size as size from console.receipts r join console.receivers v on v.id = r.receiver_id where v.slug = $1 order by r.id',
    [slug],
  );
  assert.deepEqual(
    rows.map((r) => Number(r.id)),
    acknowledged,
    'exactly the acknowledged receipts are stored',
  );
  assert.ok(
    rows.every((r) => r.size === 512 * 1024),
    'each one whole',
  );
});
