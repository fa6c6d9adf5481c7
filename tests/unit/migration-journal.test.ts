import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

// drizzle's migrator applies a migration only when its journal `when` is later than the newest one
// the database has applied: a migration generated today behind an entry stamped in the future is
// skipped on every database that is upgraded (new databases still get it, so only an upgrade shows
// it). Released entries carry future stamps, so each new entry must be stamped after the one before.

const dir = path.resolve(import.meta.dirname, '../../lib/db/migrations');
const journal = JSON.parse(fs.readFileSync(path.join(dir, 'meta/_journal.json'), 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };

test('every migration is stamped later than the one before it, so an upgrade applies it', () => {
  const late = journal.entries.filter((e, i) => i > 0 && e.when <= journal.entries[i - 1].when).map((e) => e.tag);
  assert.deepEqual(late, []);
});

test('the journal lists each migration file once, in order', () => {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  assert.deepEqual(
    journal.entries.map((e) => `${e.tag}.sql`),
    files,
  );
  assert.deepEqual(
    journal.entries.map((e) => e.idx),
    journal.entries.map((_, i) => i),
  );
});
