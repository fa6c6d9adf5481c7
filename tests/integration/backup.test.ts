// Own app: backups and restores of its own embedded store through the staff command line (the app running, stopped, an older release's store, refused archives).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { create, extract } from 'tar';
import { freePort, freshDataDir, startApp, withAppDb } from '../helpers/app';
import { lastStart, openAsAnEarlierRelease, openToOthers } from '../helpers/file-modes';
import { call, eventually, staffCookie } from '../helpers/http';
import { databaseAt } from '../helpers/old-database';
import { writeTarball } from '../helpers/tarball';
import { cli, lastJson, newSecret, ROOT, scratchPath, signedIngest, storeEnv } from '../helpers/backup-cli';

// Backup and restore of the embedded store (npm run console -- backup / restore), and the staff
// commands while the app runs on it (the CLI asks the running app over loopback with DATA_DIR's
// control file). Every app here runs on the embedded store, whatever TEST_DATABASE_URL says: the
// PostgreSQL side is pg_dump's (backup-postgres.test.ts). A backup while the app ingests and the
// scheduled backups are in backup-live.test.ts.
// @ci-one-store: CI runs this file in the embedded-store pass only (every app here is on the embedded store).

delete process.env.TEST_DATABASE_URL;

// One test at a time: each starts its own app and processes, and run at once on a loaded box
// (CI's three passes on two cores) they only slowed each other, the file's wall time the same.
describe('backups of the embedded store', () => {
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
});
