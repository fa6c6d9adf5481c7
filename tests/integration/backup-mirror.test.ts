import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { FolderMirror } from '@/lib/db/backup/mirror';

// The backup's copy of the embedded store (lib/db/backup/mirror.ts): a first copy while a real
// PGlite writes, then a pass under a transaction that holds it, after which the copy must be the
// store's folder byte for byte (and open as the store did) although files grew, shrank, appeared
// and went between the two. Without that pass the copy is stale, and the comparison fails.
// @ci-one-store: CI runs this file in the embedded-store pass only (it opens PGlite itself).

/** "relative path → sha256" of every file under `root`. */
function digest(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    out.set(path.relative(root, full), createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
  }
  return out;
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => a.get(n) !== b.get(n)).sort();
}

const rows = (from: number, n: number) => `insert into kept (id, body) select i, repeat(md5(i::text), 20) from generate_series(${from}, ${from + n - 1}) i`;

test('the pass under the transaction makes the copy the store byte for byte, after files changed, appeared and went since the first copy', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-mirror-'));
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  const store = path.join(root, 'pg');
  const copy = path.join(root, 'copy');
  const db = new PGlite(store);
  t.after(() => (db.closed ? undefined : db.close()));
  await db.exec(`create table kept (id int primary key, body text); create table dropped (id int, body text); create table shrunk (id int, body text);`);
  await db.exec(rows(1, 5000));
  await db.exec(
    `insert into dropped select i, repeat('d', 500) from generate_series(1, 2000) i; insert into shrunk select i, repeat('s', 500) from generate_series(1, 4000) i;`,
  );
  await db.exec('checkpoint');

  // The first copy, while statements run: writes land in files already copied and files not yet.
  const mirror = new FolderMirror(store, copy);
  let writing = true;
  let next = 5001;
  const writer = (async () => {
    for (let i = 0; writing && i < 40; i++) {
      await db.exec(rows(next, 200));
      next += 200;
      await new Promise((resolve) => setImmediate(resolve)); // as requests arrive: one turn of the event loop each
    }
  })();
  const first = await mirror.copyAll();
  writing = false;
  await writer;
  assert.ok(first.copiedFiles > 100, `the whole folder copied (${first.copiedFiles} files)`);

  // Between the passes: a table gone (its files removed), one rewritten (a new file), one cut short
  // (its file shrinks), rows added to one (its file grows, its index changes in place), and a row
  // changed in place (same size, other bytes).
  const relfile = async (table: string) => (await db.query<{ p: string }>(`select pg_relation_filepath('${table}') as p`)).rows[0].p;
  const droppedFile = await relfile('dropped');
  const shrunkFile = await relfile('shrunk');
  const shrunkBefore = fs.statSync(path.join(store, shrunkFile)).size;
  await db.exec('drop table dropped');
  await db.exec('create table appeared as select * from kept where id % 7 = 0');
  await db.exec('delete from shrunk where id > 100');
  await db.exec('vacuum shrunk');
  await db.exec(rows(next, 3000));
  await db.exec(`update kept set body = upper(body) where id = 3`);
  assert.ok(fs.statSync(path.join(store, shrunkFile)).size < shrunkBefore, 'the vacuum shortened a file');
  assert.notDeepEqual(differences(digest(store), digest(copy)), [], 'the copy is stale now');

  // The held pass: nothing runs while it does, so the copy is the store of that moment.
  const [pass, total] = await db.transaction(async (tx) => {
    await tx.exec('checkpoint');
    const p = await mirror.update();
    return [p, (await tx.query<{ n: number }>('select count(*)::int as n from kept')).rows[0].n] as const;
  });
  assert.deepEqual(differences(digest(store), digest(copy)), [], 'the copy is the store byte for byte');
  assert.ok(!fs.existsSync(path.join(copy, droppedFile)), "the dropped table's file is gone from the copy");
  assert.ok(pass.removed >= 1 && pass.copiedFiles >= 1, `files removed and added (${JSON.stringify(pass)})`);
  assert.ok(pass.written < pass.read, `in the files compared only what differs is rewritten (${pass.written} of ${pass.read} bytes)`);

  // A pass when nothing changed skips the files it made identical (their times are old enough) or finds nothing to write.
  const idle = await mirror.update();
  assert.equal(idle.written, 0);

  // The copy opens as the store it is, with every row.
  await db.close();
  const opened = new PGlite(copy);
  t.after(() => opened.close());
  const [{ n, upper, appeared }] = (
    await opened.query<{ n: number; upper: string; appeared: number }>(
      `select (select count(*)::int from kept) as n, (select body from kept where id = 3) as upper, (select count(*)::int from appeared) as appeared`,
    )
  ).rows;
  assert.equal(n, total);
  assert.equal(upper, upper.toUpperCase());
  assert.equal(appeared, Math.floor((next - 1) / 7), 'the table made between the passes is there');
});
