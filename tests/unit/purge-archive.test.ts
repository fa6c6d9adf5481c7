import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';

// The archive's files after a crash: a member cut half way is cut off (zcat reads the file again),
// a whole member written before the manifest is counted; appends are one gzip member each.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-archive-unit-'));
process.env.ARCHIVE_DIR = dir;
const { appendArchive, repairArchive, sealArchive } = await import('../../lib/db/archive/write-archive');
const { archiveFileName } = await import('../../lib/db/archive/archive-files');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const file = () => path.join(dir, archiveFileName('receipts'));
const manifest = () => JSON.parse(fs.readFileSync(path.join(dir, 'manifest-receipts.json'), 'utf8')).files[archiveFileName('receipts')];
const lines = () =>
  gunzipSync(fs.readFileSync(file()))
    .toString('utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));

test('appends are members of one gzip stream, counted, and hashed when the pass ends', async () => {
  await appendArchive('receipts', [{ id: 1 }, { id: 2 }]);
  await appendArchive('receipts', [{ id: 3 }]);
  assert.deepEqual(
    lines().map((l) => l.id),
    [1, 2, 3],
  );
  const bytes = fs.readFileSync(file());
  assert.deepEqual(manifest(), { records: 3, bytes: bytes.length, sha256: null }, 'no hash while the pass appends');
  await sealArchive(['receipts']);
  assert.deepEqual(manifest(), { records: 3, bytes: bytes.length, sha256: sha(bytes) });
});

test('a member cut by a crash is cut off; a whole one not yet counted is counted', async () => {
  const whole = fs.readFileSync(file()).length;
  fs.appendFileSync(file(), gzipSync(Buffer.from('{"id":4}\n')).subarray(0, 12)); // the write stopped half way
  await repairArchive(['receipts']);
  assert.equal(fs.readFileSync(file()).length, whole, 'back to the last whole member');
  assert.deepEqual(
    lines().map((l) => l.id),
    [1, 2, 3],
  );

  fs.appendFileSync(file(), gzipSync(Buffer.from('{"id":4}\n{"id":5}\n'))); // written, then the crash before the manifest
  await repairArchive(['receipts']);
  const bytes = fs.readFileSync(file());
  assert.deepEqual(manifest(), { records: 5, bytes: bytes.length, sha256: sha(bytes) });
  await appendArchive('receipts', [{ id: 6 }]);
  await sealArchive(['receipts']);
  assert.deepEqual(
    lines().map((l) => l.id),
    [1, 2, 3, 4, 5, 6],
  );
  assert.deepEqual(manifest(), { records: 6, bytes: fs.readFileSync(file()).length, sha256: sha(fs.readFileSync(file())) });
});
