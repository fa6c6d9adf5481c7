// Own app: backups, restores and scheduled backups of its own embedded store (BACKUP_DIR, BACKUP_EVERY 5 s), with restarts.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { create, extract } from 'tar';
import { disposeAtExit, freePort, freshDataDir, startApp, withAppDb, type TApp } from '../helpers/app';
import { startInbox } from '../helpers/smtp-inbox';
import { countEntries, lastStart, openAsAnEarlierRelease, openToOthers } from '../helpers/file-modes';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { databaseAt } from '../helpers/old-database';
import { screenshotPages } from '../helpers/screenshots';
import { writeTarball } from '../helpers/tarball';

// Backup and restore of the embedded store (npm run console -- backup / restore), the staff
// commands while the app runs on it (the CLI asks the running app over loopback with DATA_DIR's
// control file), and scheduled backups. Every app here runs on the embedded store, whatever
// TEST_DATABASE_URL says: the PostgreSQL side is pg_dump's (backup-postgres.test.ts).
// @ci-one-store: CI runs this file in the embedded-store pass only (every app here is on the embedded store).

delete process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(import.meta.dirname, '../..');

type TCli = { code: number; out: string; err: string };
/** `npm run console -- …args` as a process; `stdin` is piped to it (a chosen password or secret), else its stdin is empty; `nodeArgs` go to its node (a preload). */
function cli(args: string[], env: Record<string, string>, stdin = '', nodeArgs: string[] = []): Promise<TCli> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', ...nodeArgs, path.join(ROOT, 'scripts/console-cli.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, out, err) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin!.end(stdin);
  });
}
const lastJson = (r: TCli) => JSON.parse(r.out.trim().split('\n').pop() ?? '{}');
const storeEnv = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: '' });
/** A path in a fresh temporary folder (removed when the test process ends), which does not exist yet. */
function scratchPath(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-backup-test-'));
  disposeAtExit({ DATA_DIR: dir });
  return path.join(dir, name);
}

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
function signedIngest(app: TApp, slug: string, secret: string, body: string): Promise<Response> {
  const id = `msg_${randomBytes(10).toString('hex')}`;
  const at = new Date();
  const signature = new Webhook(secret).sign(id, at, body);
  return fetch(`${app.baseUrl}/ingest/${slug}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  });
}

// The four are independent (each its own app, store and files): they run at once, so the file takes
// as long as its longest test, not the sum.
describe('backups of the embedded store', { concurrency: true }, () => {
  test('staff commands while the app runs on the embedded store (through the app), and while it is stopped', async (t) => {
    const app = await startApp({ adminUrl: null });
    t.after(() => app.destroy());
    const env = storeEnv(app.env.DATA_DIR);
    const controlFile = path.join(app.env.DATA_DIR, 'control.json');
    assert.equal(fs.statSync(controlFile).mode & 0o777, 0o600, 'the credential is readable by the machine user only');
    // The control port, asked straight (its token checks are below): where a CLI process's own part is
    // proven once, the rest of a command's outcomes are read from the app that runs it, as the CLI
    // prints them (`out` to stdout, `err` to stderr), without a process of ~2 CPU s each.
    const control = JSON.parse(fs.readFileSync(controlFile, 'utf8')) as { port: number; token: string };
    const ask = (authorization?: string, argv = ['users:list'], input?: { password?: string }) =>
      fetch(`http://127.0.0.1:${control.port}/command`, {
        method: 'POST',
        headers: authorization ? { authorization } : {},
        body: JSON.stringify({ argv, input }),
      });
    const command = async (argv: string[]) => (await ask(`Bearer ${control.token}`, argv)).json() as Promise<{ code: number; out: string[]; err: string[] }>;

    // No password on the command line (every local user sees it in `ps`): refused, with the way to do it
    // — by the CLI process before it asks anyone, and by the app for the other spellings (both parse
    // with parseCommand, lib/cli/console-commands.ts).
    const PASSWORD_REFUSAL =
      '--password on the command line is visible to every user of this machine (ps): leave it out for a generated one-time password, or pipe yours with --password-stdin.';
    const refused = await cli(['users:add', '--email', 'colleague@example.org', '--password', 'colleague-pass-1'], env);
    assert.equal(refused.code, 2, refused.out);
    assert.equal(refused.err.trim(), PASSWORD_REFUSAL);
    assert.ok(!refused.err.includes('colleague-pass-1'));
    for (const argv of [
      ['users:add', '--email=colleague@example.org', '--password=colleague-pass-1'],
      ['users:password', '--email', 'colleague@example.org', '--password', 'colleague-pass-1'],
    ]) {
      const spelled = await command(argv);
      assert.equal(spelled.code, 2, argv.join(' '));
      assert.deepEqual(spelled.err, [PASSWORD_REFUSAL], argv.join(' '));
    }
    const refusedSecret = await command(['receivers:create', '--name', 'x', '--secret', 'whsec_c2VjcmV0c2VjcmV0']);
    assert.equal(refusedSecret.code, 2);
    assert.deepEqual(refusedSecret.err, [
      '--secret on the command line is visible to every user of this machine (ps): pipe the whsec_… secret with --secret-stdin.',
    ]);
    assert.match((await command(['users:list'])).out.join('\n'), /^admin@example\.org\t[^\n]*$/, 'nothing was added');

    // Without a password: a generated one-time password, printed once.
    const added = await cli(['users:add', '--email', 'colleague@example.org', '--role', 'operator'], env);
    assert.equal(added.code, 0, added.err);
    assert.deepEqual([lastJson(added).email, lastJson(added).role, lastJson(added).mustChangePassword], ['colleague@example.org', 'operator', true]);
    const generated = lastJson(added).password as string;
    assert.match(generated, /^[A-Za-z0-9]{20}$/);
    assert.match(added.out, new RegExp(`one-time password ${generated}: they choose their own at their first sign-in`));
    // It names the store it changed and who did the work (on stderr: stdout stays the answer, its JSON last).
    assert.equal(added.err.trim(), `Store: the embedded store in DATA_DIR=${app.env.DATA_DIR}; the running app (pid ${app.pid()}) did the work.`);

    // Issue 50.6: after a restore into a new DATA_DIR the app runs there while .env still names the old
    // one; users:add on the old (stopped) store "succeeds" where the app never looks. It says so now.
    const old = (await freshDataDir()).DATA_DIR;
    const beside = { ...storeEnv(old), PORT: String(app.port) };
    const lost = await cli(['users:add', '--email', 'lost@example.org'], beside);
    assert.equal(lost.code, 0, lost.err);
    assert.deepEqual(lost.err.trim().split('\n'), [
      `Store: the embedded store in DATA_DIR=${old}; this process did the work (no app runs on this DATA_DIR).`,
      `Warning: the app answering on port ${app.port} serves another store, not the embedded store in DATA_DIR=${old}: it does not see this. Run the command with that app's DATA_DIR (or DATABASE_URL), or start the app on this one.`,
    ]);
    const lostSignIn = await call(app, 'POST', '/api/session', { body: { email: 'lost@example.org', password: lastJson(lost).password } });
    assert.equal(lostSignIn.status, 401, 'the warning is true: the running app does not know the user');
    const lostBackup = await cli(['backup', '--out', scratchPath('old.tar.gz')], beside);
    assert.equal(lostBackup.code, 0, lostBackup.err);
    assert.match(
      lostBackup.err,
      new RegExp(`^Warning: the app answering on port ${app.port} serves another store`, 'm'),
      'a backup of the stopped store says so too',
    );
    const alone = await cli(['users:list'], { ...storeEnv(old), PORT: String(await freePort()) });
    assert.equal(
      alone.err.trim(),
      `Store: the embedded store in DATA_DIR=${old}; this process did the work (no app runs on this DATA_DIR).`,
      'no app on the port: no warning',
    );
    // As one the Staff page adds: the password is one-time, and nothing but its change answers until it is changed.
    const first = await call(app, 'POST', '/api/session', { body: { email: 'colleague@example.org', password: generated } });
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.mustChangePassword, true, 'a CLI-added user must change the password at the first sign-in');
    const firstCookie = first.headers
      .getSetCookie()
      .find((c) => c.startsWith('gc_console_session='))!
      .split(';')[0];
    assert.equal((await call(app, 'GET', '/api/receivers', { headers: { cookie: firstCookie } })).status, 403, 'nothing else answers before the change');
    const own = await staffCookie(app, { email: 'colleague@example.org', password: generated }); // chooses their own password
    assert.equal((await call(app, 'GET', '/api/receivers', { headers: { cookie: own } })).status, 200, 'the new colleague signs in at once, no restart');
    // A chosen password comes on standard input (a terminal would be asked without echo).
    const reset = await cli(['users:password', '--email', 'colleague@example.org', '--password-stdin'], env, 'colleague-pass-2\n');
    assert.equal(reset.code, 0, reset.err);
    assert.ok(!reset.out.includes('colleague-pass-2'), 'a chosen password is not printed back');
    assert.equal((await call(app, 'GET', '/api/receivers', { headers: { cookie: own } })).status, 401, "users:password ends the user's sessions");
    const afterReset = await call(app, 'POST', '/api/session', { body: { email: 'colleague@example.org', password: 'colleague-pass-2' } });
    assert.equal(afterReset.body.mustChangePassword, true, 'a password set by users:password is one-time too');
    const regenerated = await command(['users:password', '--email', 'colleague@example.org']);
    assert.equal(regenerated.code, 0, regenerated.err.join('\n'));
    const again1 = /one-time password ([A-Za-z0-9]{20})\b/.exec(regenerated.out.join('\n'))?.[1];
    assert.ok(again1, regenerated.out.join('\n'));
    assert.equal((await call(app, 'POST', '/api/session', { body: { email: 'colleague@example.org', password: again1 } })).body.mustChangePassword, true);
    const empty = await cli(['users:password', '--email', 'colleague@example.org', '--password-stdin'], env, '');
    assert.equal(empty.code, 2);
    assert.match(empty.err, /--password-stdin: nothing came on standard input/);
    assert.match((await command(['users:list'])).out.join('\n'), /colleague@example\.org\toperator/);
    const secret = newSecret();
    const receiver = await cli(['receivers:create', '--name', 'From the shell', '--secret-stdin'], env, `${secret}\n`);
    assert.equal(receiver.code, 0, receiver.err);
    assert.match((await command(['receivers:list'])).out.join('\n'), /From the shell\t\S+\t1 secret\(s\)/);
    const adminCookie = await staffCookie(app); // the colleague's sessions ended with users:password
    const verified = await signedIngest(app, lastJson(receiver).slug, secret, '{"from":"the shell"}');
    assert.ok(verified.ok, String(verified.status));
    const [{ verdict }] = await eventually(
      async () => {
        const rows = (await call(app, 'GET', `/api/receivers/${lastJson(receiver).id}/receipts`, { headers: { cookie: adminCookie } })).body.results;
        return rows?.length ? rows : undefined;
      },
      5000,
      'the receipt',
    );
    assert.equal(verdict, 'valid', 'the secret piped in is the one the receiver verifies with');

    // The control port answers only the token, compared whole.
    assert.equal((await ask()).status, 401);
    assert.equal((await ask(`Bearer ${control.token.slice(0, -1)}x`)).status, 401);
    assert.equal((await ask(`Bearer ${control.token}`)).status, 200);
    // Refusals, as the CLI gets them from the app (asked straight, without a CLI process each: the transport is proven above).
    const again = await command(['users:add', '--email', 'colleague@example.org']);
    assert.equal(again.code, 1);
    assert.match(again.err.join('\n'), /already exists\. Use users:password/);
    const badRole = await command(['users:add', '--email', 'x@example.org', '--role', 'owner']);
    assert.equal(badRole.code, 2);
    assert.match(badRole.err.join('\n'), /--role must be viewer, operator or admin/);
    const argvPassword = await command(['users:add', '--email', 'x@example.org', '--password', 'colleague-pass-1']);
    assert.equal(argvPassword.code, 2, 'the app refuses a password in argv too');
    const short = await (
      await ask(`Bearer ${control.token}`, ['users:password', '--email', 'colleague@example.org', '--password-stdin'], { password: 'short' })
    ).json();
    assert.equal(short.code, 1);
    assert.match(short.err.join('\n'), /at least 8 characters/);
    assert.ok(!app.logs().includes(control.token), 'the token is never logged');

    // Stopped: the control file goes with the app, and the CLI opens the store itself.
    await app.stop();
    assert.ok(!fs.existsSync(controlFile), 'the control file is removed at stop');
    const offline = await cli(['users:add', '--email', 'second@example.org', '--password-stdin'], env, 'second-pass-1');
    assert.equal(offline.code, 0, offline.err);
    // A store as an earlier release left it (PGlite's files 0666; here every folder 0777 too): the
    // next start makes every file 0600 and every folder 0700 before it opens the store, in one line.
    const opened = openAsAnEarlierRelease(app.env.DATA_DIR);
    assert.ok(opened > 100, `${opened} files and folders opened`);
    await app.restart();
    const corrected = lastStart(app.logs())
      .split('\n')
      .filter((l) => /^Made private what other local accounts could reach/.test(l));
    assert.equal(corrected.length, 1, `one line says what was corrected:\n${lastStart(app.logs())}`);
    const [, files, folders] = /DATA_DIR [^:]+: (\d+) files and (\d+) folders/.exec(corrected[0]) ?? [];
    assert.equal(Number(files) + Number(folders), opened, corrected[0]);
    assert.deepEqual(openToOthers(app.env.DATA_DIR), [], 'nothing in DATA_DIR is open to other accounts after the start');
    assert.ok(await staffCookie(app, { email: 'second@example.org', password: 'second-pass-1' }));

    // Killed: its control file stays behind, names a process that is gone, and the CLI opens the store
    // (what it writes there is read back as above: no third start to prove it again).
    await app.kill();
    assert.ok(fs.existsSync(controlFile));
    const afterKill = await cli(['users:add', '--email', 'third@example.org'], env);
    assert.equal(afterKill.code, 0, afterKill.err);
  });

  test('a backup while the app ingests: ingest answers 2xx throughout, everything acknowledged before is in it; restore brings back every receipt, message, user, setting and secret', async (t) => {
    const app = await startApp({ adminUrl: null });
    t.after(() => app.destroy());
    const env = storeEnv(app.env.DATA_DIR);
    const cookie = await staffCookie(app);
    const secret = newSecret();
    const created = await call(app, 'POST', '/api/receivers', { headers: { cookie }, body: { name: 'backed up', secret } });
    assert.equal(created.status, 201, created.text);
    const slug = created.body.slug as string;
    assert.equal((await call(app, 'PATCH', '/api/retention', { headers: { cookie }, body: { RECEIPT_BODY_RETENTION: '12d' } })).status, 200);
    assert.equal((await cli(['users:add', '--email', 'kept@example.org', '--password-stdin'], env, 'kept-pass-12')).code, 0);
    const tok = await token(app);
    const np = await call(app, 'POST', '/v1/nonprofits', {
      token: tok,
      body: { ein: `47${String(Date.now()).slice(-7)}`, name: 'Backed Up Food Bank', user: { email: 'b@example.org' } },
    });
    assert.equal(np.status, 201, np.text);

    const before: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await signedIngest(app, slug, secret, JSON.stringify({ i, before: true }));
      assert.equal(res.status, 200);
      before.push(res.headers.get('x-receipt-id')!);
    }

    // Senders keep posting while the backup is taken, each a request at a time, 50 ms apart: whenever the
    // backup holds statements, each has one waiting on it (or within 50 ms), as back to back. Back to back they
    // sent as many as the backup's length allowed, and a loaded machine stretches it: 2,946 receipts, each
    // stored, backed up, restored and counted, and this test at 34.8 CPU s; 50 ms apart, 594 and 27.3 CPU s
    // (the test alone beside CI-like load, 20–40).
    let backingUp = true;
    const during: number[] = [];
    const senders = Array.from({ length: 3 }, async () => {
      while (backingUp) {
        const res = await signedIngest(app, slug, secret, JSON.stringify({ during: true, pad: randomBytes(512).toString('hex') }));
        during.push(res.status);
        await res.arrayBuffer();
        await sleep(50);
      }
    });
    const file = scratchPath('console.tar.gz');
    const backup = await cli(['backup', '--out', file], env);
    backingUp = false;
    await Promise.all(senders);
    assert.equal(backup.code, 0, backup.err);
    assert.match(backup.out, /taken by the running app \(pid \d+\)/);
    assert.ok(during.length > 0, 'requests were sent during the backup');
    assert.deepEqual([...new Set(during)], [200], 'ingest answered 2xx throughout the backup');
    const manifest = lastJson(backup).manifest as { rowCounts: Record<string, number>; lastMigration: string };
    assert.ok(manifest.rowCounts['console.receipts'] >= before.length);
    assert.match(manifest.lastMigration, /^\d{4}_/);
    assert.equal((await cli(['backup', '--out', file], env)).code, 1, 'an existing file is never replaced');
    // The running store (its write-ahead log, the control file, the lock) and the backup: the account's alone.
    assert.deepEqual(openToOthers(app.env.DATA_DIR, file), [], 'no file or folder is open to group or others');

    // Restore: refused into a store that holds anything, with a sentence; then into an empty directory.
    const refused = await cli(['restore', '--from', file], env);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /is not empty .*a restore only goes into an empty directory/);
    const notABackup = scratchPath('not-a-backup.tar.gz');
    fs.writeFileSync(notABackup, 'hello');
    const restoredDir = scratchPath('restored');
    const bad = await cli(['restore', '--from', notABackup], storeEnv(restoredDir));
    assert.equal(bad.code, 1);
    assert.match(bad.err, /could not be read as a backup|not a backup/);
    assert.deepEqual(fs.existsSync(restoredDir) ? fs.readdirSync(restoredDir).filter((n) => n !== 'owner.lock') : [], [], 'a failed restore leaves nothing');

    const restore = await cli(['restore', '--from', file], storeEnv(restoredDir));
    assert.equal(restore.code, 0, restore.err);
    assert.match(restore.out, /Restored .* receipts/);
    assert.ok(countEntries(restoredDir) > 100);
    assert.deepEqual(openToOthers(restoredDir), [], "the restored store is the account's alone");
    const copy = await startApp({ env: storeEnv(restoredDir) });
    t.after(() => copy.stop());
    assert.ok(await staffCookie(copy, { email: 'kept@example.org', password: 'kept-pass-12' }), 'the staff user came back, password and all');
    const copyCookie = await staffCookie(copy);
    const retention = await call(copy, 'GET', '/api/retention', { headers: { cookie: copyCookie } });
    assert.equal(JSON.stringify(retention.body).includes('12d'), true, 'the setting came back');
    const verified = await signedIngest(copy, slug, secret, JSON.stringify({ after: 'restore' }));
    assert.equal(verified.status, 200);
    const receipt = await call(copy, 'GET', `/api/receipts/${verified.headers.get('x-receipt-id')}`, { headers: { cookie: copyCookie } });
    assert.equal(receipt.body.verdict, 'valid', 'the receiver secret came back');
    const connect = await call(copy, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: await token(copy) });
    assert.equal(connect.status, 201, `the service side came back (its nonprofit and API client): ${connect.text}`);
    // One look at the copy's store, the app stopped for it and left so (nothing asks it again).
    const [rows, [counts]] = await withAppDb(
      copy,
      async (query) =>
        [
          await query<{ id: string }>('select id::text from console.receipts'),
          await query<Record<string, number>>(
            `select (select count(*)::int from console.users) as "console.users", (select count(*)::int from console.receivers) as "console.receivers",
                    (select count(*)::int from console.settings) as "console.settings", (select count(*)::int from service.messages) as "service.messages",
                    (select count(*)::int from service.nonprofits) as "service.nonprofits", (select count(*)::int from service.signing_keys) as "service.signing_keys"`,
          ),
        ] as const,
      { leaveStopped: true },
    );
    const ids = new Set(rows.map((r) => r.id));
    assert.ok(
      before.every((id) => ids.has(id)),
      'every receipt acknowledged before the backup is in it',
    );
    assert.equal(ids.size, manifest.rowCounts['console.receipts'] + 1, 'the backup holds what its manifest counts (and the one sent since)');
    for (const [table, n] of Object.entries(counts)) assert.equal(n, manifest.rowCounts[table], table);
  });

  test('a backup of an older release restores, and the app migrates it as an upgrade does', async (t) => {
    const receiverId = '0193e0c0-0000-7000-8000-00000000b0b0';
    const old = await databaseAt(
      '0020_payload_words',
      `insert into console.receivers (id, slug, name, secrets) values ('${receiverId}', 'from-an-old-release', 'From an old release', '{}');
       insert into console.receipts (receiver_id, method, path, headers, body_size, verdict, response_status, message_id)
         values ('${receiverId}', 'POST', '/ingest/from-an-old-release', '[]', 0, 'missing headers', 200, 'msg_old');`,
    );
    const file = scratchPath('old.tar.gz');
    const backup = await cli(['backup', '--out', file], old);
    assert.equal(backup.code, 0, backup.err);
    assert.match(backup.out, /taken by this process/);
    const { manifest } = lastJson(backup) as { manifest: { lastMigration: string; rowCounts: Record<string, number> } };
    assert.equal(manifest.lastMigration, '0020_payload_words', 'the backup says which release made it, and the stopped store was not migrated by it');
    // As an earlier release's backup holds them: files 0666, folders 0777.
    const unpacked = scratchPath('unpacked');
    fs.mkdirSync(unpacked);
    await extract({ file, cwd: unpacked });
    openAsAnEarlierRelease(unpacked);
    const openFile = scratchPath('old-open-modes.tar.gz');
    await create({ gzip: { level: 1 }, file: openFile, cwd: unpacked, portable: true }, ['manifest.json', 'pg']); // the fastest: only its modes matter
    fs.rmSync(unpacked, { recursive: true });
    const dir = scratchPath('restored-old');
    const restore = await cli(['restore', '--from', openFile], storeEnv(dir));
    assert.equal(restore.code, 0, restore.err);
    assert.match(restore.out, /migration 0020_payload_words/);
    assert.deepEqual(openToOthers(dir), [], 'restored files are 0600 and folders 0700, whatever the tarball says');
    const app = await startApp({ env: storeEnv(dir) });
    t.after(() => app.stop());
    const cookie = await staffCookie(app);
    const list = await call(app, 'GET', '/api/receivers', { headers: { cookie } });
    assert.ok(JSON.stringify(list.body).includes('From an old release'));
    const [{ n, last }] = await withAppDb(
      app,
      (query) =>
        query<{ n: number; last: string }>(
          `select (select count(*)::int from console.receipts) as n, (select max(created_at)::text from drizzle.__drizzle_migrations) as last`,
        ),
      { leaveStopped: true },
    );
    assert.equal(n, 1);
    const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'lib/db/migrations/meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
    assert.equal(Number(last), journal.entries.at(-1)!.when, 'migrated to this release');
  });

  test('restore refuses, before it writes past a bound, what no backup holds (a bomb, a huge manifest, a path outside, a link), in one sentence, leaving nothing behind', async () => {
    const manifest = Buffer.from(
      JSON.stringify({
        format: 'giving-connect-console-backup',
        formatVersion: 1,
        createdAt: new Date().toISOString(),
        appVersion: '0.1.0',
        store: 'pglite',
        postgres: '17.5',
        lastMigration: null,
        rowCounts: {},
      }),
    );
    const head = [
      { path: 'manifest.json', body: manifest },
      { path: 'pg', type: 'Directory' as const },
      { path: 'pg/PG_VERSION', body: Buffer.from('17\n') },
    ];
    const outside = scratchPath('escaped');
    const cases = [
      // 512 MiB of zeros in 64 files, 0.8 MB on disk (680 times smaller: tar's own limit is 1000).
      {
        name: 'bomb',
        entries: () => Array.from({ length: 64 }, (_, i) => ({ path: `pg/base/1/${16384 + i}`, size: 8 << 20 })),
        refusal:
          /unpacks to more than [\d.]+ MiB, 100 times its size of [\d.]+ KiB \(a backup unpacks to under 10 times its size\): it is damaged or not a backup of this console, and nothing was restored\.$/,
      },
      {
        name: 'manifest',
        entries: () => [{ path: 'manifest.json', body: Buffer.concat([manifest, Buffer.alloc(2 << 20, ' ')]) }],
        refusal: /holds a manifest\.json of 2\.0 MiB, more than the 1\.0 MiB a backup's manifest may be/,
      },
      // From the folder it unpacks into (DATA_DIR/restore-…/) to `outside`.
      {
        name: 'dot-dot',
        entries: (target: string) => [{ path: `pg/${path.relative(path.join(target, 'restore-x', 'pg'), outside)}`, body: Buffer.from('x') }],
        refusal: /holds an entry outside the folder it unpacks into \("pg\/\.\.\/\.\.\//,
      },
      { name: 'absolute', entries: () => [{ path: outside, body: Buffer.from('x') }], refusal: /holds an entry outside the folder it unpacks into \("\// },
      {
        name: 'symlink',
        entries: () => [
          { path: 'pg/global', type: 'SymbolicLink' as const, linkpath: path.dirname(outside) },
          { path: 'pg/global/escaped', body: Buffer.from('x') },
        ],
        refusal: /holds a symbolic link \("pg\/global"\); a backup holds only files and folders/,
      },
      { name: 'hardlink', entries: () => [{ path: 'pg/global', type: 'Link' as const, linkpath: outside }], refusal: /holds a hard link \("pg\/global"\)/ },
    ];
    await Promise.all(
      cases.map(async ({ name, entries, refusal }) => {
        const file = scratchPath(`${name}.tar.gz`);
        const target = scratchPath('restored');
        await writeTarball(file, [...(name === 'manifest' ? [] : head), ...entries(target)]);
        const r = await cli(['restore', '--from', file], storeEnv(target), '', ['--import', path.join(ROOT, 'tests/helpers/peak-rss.mjs')]);
        const peak = Number(/peak-rss (\d+)/.exec(r.err)?.[1]);
        const err = r.err.replace(/\s*peak-rss \d+\s*$/, '');
        assert.equal(r.code, 1, `${name}: ${r.out}${err}`);
        assert.match(err.trim(), new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `), `${name}: one sentence naming the file`);
        assert.match(err.trim(), refusal, name);
        assert.equal(err.trim().split('\n').length, 1, `${name}: one line`);
        assert.ok(!fs.existsSync(target), `${name}: nothing left where it was to go`);
        assert.ok(!fs.existsSync(outside), `${name}: nothing written outside`);
        // Unpacked a stream at a time: tar's own reads inflated 16 MiB of a bomb at once (a peak of 680 MB here).
        assert.ok(peak > 0 && peak < 250e6, `${name}: the restore peaked at ${(peak / 1e6).toFixed(0)} MB`);
      }),
    );
  });

  /** A real SMTP server on loopback (tests/helpers/smtp-inbox.ts), closed when the test ends. */
  async function smtpInbox(t: TestContext): Promise<{ url: string; subjects: () => string[] }> {
    const inbox = await startInbox();
    t.after(() => inbox.close());
    return { url: inbox.url, subjects: () => inbox.mails.map((m) => m.subject) };
  }

  test('scheduled backups: every BACKUP_EVERY, the newest BACKUP_KEEP kept, a failure logged, shown and alerted until one works again', async (t) => {
    const dir = scratchPath('backups');
    // Two backups of a year ago already there (as a previous run of the schedule left them): the
    // newest is older than BACKUP_EVERY, so the first is taken at once, and the rotation that keeps
    // the newest BACKUP_KEEP removes them as new ones come — two scheduled backups show both.
    const ancient = ['console-backup-20251101T000000Z.tar.gz', 'console-backup-20251102T000000Z.tar.gz'];
    fs.mkdirSync(dir, { mode: 0o700 });
    for (const n of ancient) fs.writeFileSync(path.join(dir, n), 'an old backup', { mode: 0o600 });
    const inbox = await smtpInbox(t);
    // Every 5 s, not 1 s: each backup of even an empty store gzips ~40 MB (~3 CPU s), so a 1 s schedule
    // took backups back to back for the whole test — 150 CPU s of CI's embedded pass.
    const app = await startApp({
      adminUrl: null,
      env: {
        BACKUP_DIR: dir,
        BACKUP_EVERY: '5s',
        BACKUP_KEEP: '2',
        ALERT_EVAL_MS: '200',
        SMTP_URL: inbox.url,
        ALERT_EMAIL_FROM: 'Console Alerts <alerts@example.org>',
      },
    });
    t.after(() => app.destroy());
    const written = () => app.logs().match(/scheduled backup written to /g)?.length ?? 0;
    const cookie = await staffCookie(app);
    // The health page, as text.
    const page = () => fetch(`${app.baseUrl}/`, { headers: { cookie } }).then(async (r) => (await r.text()).replace(/<!-- -->/g, '').replace(/<[^>]+>/g, ''));

    // Two rules on the backups, by the existing channels: a signed POST (to a receiver of this console)
    // and an e-mail; made while the first backup is taken, so that they are evaluated (every 200 ms)
    // all through the two scheduled backups below.
    const staff = (method: string, p: string, body?: unknown) => call(app, method, p, { headers: { cookie }, body });
    const target = await staff('POST', '/api/receivers', { name: 'backup alerts' });
    assert.equal(target.status, 201, target.text);
    const refused = await staff('POST', '/api/alert-rules', {
      name: 'backups',
      kind: 'backup_failed',
      threshold: 0,
      targetUrl: `${app.baseUrl}/ingest/${target.body.slug}`,
    });
    assert.equal(refused.status, 400, 'hours must be given');
    assert.match(refused.text, /hours from 0\.01/);
    const posted = await staff('POST', '/api/alert-rules', {
      name: 'backups',
      kind: 'backup_failed',
      threshold: 24,
      targetUrl: `${app.baseUrl}/ingest/${target.body.slug}`,
      enabled: false,
    });
    assert.equal(posted.status, 201, posted.text);
    assert.equal((await staff('PATCH', `/api/receivers/${target.body.id}`, { secrets: [posted.body.secret] })).status, 200);
    assert.equal((await staff('PATCH', `/api/alert-rules/${posted.body.rule.id}`, { enabled: true })).status, 200);
    const mailed = await staff('POST', '/api/alert-rules', {
      name: 'backups by mail',
      kind: 'backup_failed',
      threshold: 24,
      targetUrl: 'mailto:ops@example.org',
    });
    assert.equal(mailed.status, 201, mailed.text);
    const posts = async () => {
      const res = await staff('GET', `/api/receivers/${target.body.id}/receipts?pageLimit=100`);
      return (res.body.results as { bodyText: string; verdict: string }[]).reverse().map((r) => ({ ...JSON.parse(r.bodyText), verdict: r.verdict }));
    };

    // A backup took 21.5 s beside CI's two other passes (load ~23).
    await eventually(async () => written() >= 2, 180_000, 'two scheduled backups').catch((err) => assert.fail(`${err}\n${app.logs()}`));
    const done = () => fs.readdirSync(dir).filter((n) => /^console-backup-\d{8}T\d+Z\.tar\.gz$/.test(n));
    await eventually(async () => done().length === 2 && !done().some((n) => ancient.includes(n)), 15_000, 'the rotation to leave the newest two');
    assert.ok(
      fs.readdirSync(dir).every((n) => /^console-backup-|^\.console-backup-.*\.partial$/.test(n)),
      fs.readdirSync(dir).join(', '),
    );
    assert.deepEqual(openToOthers(dir, app.env.DATA_DIR), [], "BACKUP_DIR (made by the app), its backups and the store are the account's alone");
    assert.match(await page(), /Backups every 5s into .* the newest 2 kept: last taken \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
    // The rules were evaluated through both backups (at least BACKUP_EVERY apart): nothing fired.
    assert.deepEqual(await posts(), [], 'no alert while backups work');

    // The folder replaced by a file: each attempt fails, one line each, and the page says so.
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'not a folder');
    // The next attempt fails: it may first wait for a backup in progress, which took over 30 s at a load of ~30.
    await eventually(async () => /scheduled backup into .* failed \(/.test(app.logs()), 120_000, 'a failure logged');
    await eventually(
      async () => /The scheduled backup failed .*: EEXIST|The scheduled backup failed .*: ENOTDIR/.test(await page()),
      15_000,
      'the failure on the health page',
    );
    const [fired] = await eventually(
      async () => {
        const p = await posts();
        return p.length > 0 && p;
      },
      30_000,
      'the backup alert POSTed',
    );
    assert.equal(fired.type, 'alert.fired');
    assert.equal(fired.verdict, 'valid', 'signed with the rule secret');
    assert.equal(fired.data.rule.kind, 'backup_failed');
    assert.equal(fired.data.subject, `backup:${dir}`);
    assert.match(fired.data.details.reason, /EEXIST|ENOTDIR/);
    await eventually(
      async () => inbox.subjects().some((s) => s.startsWith('[firing] backups by mail: backups in ')),
      30_000,
      `the backup alert e-mailed (${inbox.subjects().join(' | ')})`,
    );
    const listed = ((await staff('GET', '/api/alerts')).body.results as { ruleId: string; subject: string; clearedAt: string | null }[]).filter(
      (a) => a.ruleId === posted.body.rule.id,
    );
    assert.deepEqual(
      listed.map((a) => [a.subject, a.clearedAt]),
      [[`backup:${dir}`, null]],
      'one alert, firing',
    );
    if (process.env.BACKUP_SCREENSHOTS) await screenshotPages(app, cookie, process.env.BACKUP_SCREENSHOTS, ['/']);
    fs.rmSync(dir);
    await eventually(
      async () => /scheduled backup written to .*\(working again after \d+ failed attempts?\)/.test(app.logs()),
      120_000,
      'a backup after the failure',
    ); // a whole backup: over 30 s at CI's load
    await eventually(async () => (await posts()).length === 2, 30_000, 'the backup alert resolved');
    assert.deepEqual(
      (await posts()).map((p) => p.type),
      ['alert.fired', 'alert.resolved'],
      'fired once, resolved once',
    );
    await eventually(async () => inbox.subjects().some((s) => s.startsWith('[resolved] backups by mail')), 30_000, 'the resolution e-mailed');
    // Stopped before the restore: a scheduled backup is ~3 CPU s of gzip, and nothing below needs more of them.
    await app.stop();
    t.diagnostic(`${written()} scheduled backups written`);
    const newest = done().sort().at(-1)!;
    const restored = scratchPath('from-schedule');
    const restore = await cli(['restore', '--from', path.join(dir, newest)], storeEnv(restored));
    assert.equal(restore.code, 0, restore.err);
  });
});
