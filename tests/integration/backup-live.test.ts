// Own app: a backup while the app ingests, and scheduled backups (BACKUP_DIR, BACKUP_EVERY 5 s) of its own embedded store.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { startApp, withAppDb } from '../helpers/app';
import { startInbox } from '../helpers/smtp-inbox';
import { countEntries, openToOthers } from '../helpers/file-modes';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { screenshotPages } from '../helpers/screenshots';
import { cli, lastJson, newSecret, scratchPath, signedIngest, storeEnv } from '../helpers/backup-cli';

// Backups taken while the app works: one through the staff command line while it ingests, and the
// schedule's (with its alerts). Every app here runs on the embedded store, whatever
// TEST_DATABASE_URL says. The other backup and restore tests are in backup.test.ts.
// @ci-one-store: CI runs this file in the embedded-store pass only (every app here is on the embedded store).

delete process.env.TEST_DATABASE_URL;

// One test at a time (see backup.test.ts).
describe('backups of the embedded store while it works', () => {
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
        ALERT_EVAL_MS: '1000',
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
    // and an e-mail; made while the first backup is taken, so that they are evaluated (every second)
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
