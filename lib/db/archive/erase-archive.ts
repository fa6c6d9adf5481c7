import { randomUUID } from 'node:crypto';
import { open, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { dbKind, getDb } from '../client';
import { releaseLease, takeLease, type TLease } from '../take-lease';
import { archiveDir, archiveFiles, fsyncPath, queued, readManifest, repair, sha256Of, writeManifest, type TArchiveKind } from './archive-files';

// A donor erasure in the archive (ARCHIVE_DIR; the files: archive-files.ts): it rewrites the files
// that hold the donor. Each matching record keeps its skeleton (ids, times, hashes) and loses its
// body, headers, payload or answer; the file is written anew (temp file, fsync, rename) under the
// purge's lease, so no append of another process is lost to it, and in this process's queue.

/** The fields an erased archive record loses: what carried the donor. */
const DONOR_FIELDS = ['body', 'headers', 'query', 'payload', 'response'];

async function leased<T>(lease: TLease, run: () => Promise<T>): Promise<T> {
  if ((await dbKind()) !== 'postgres') return run();
  const db = await getDb();
  const owner = `${lease.name}-erasure-${randomUUID()}`;
  // The purge holds it for a tick (about a second) at a time: wait for a gap, up to half a minute.
  for (const deadline = Date.now() + 30_000; !(await takeLease(db, lease, owner, 60_000));) {
    if (Date.now() > deadline) throw new Error(`the archive is busy (lease ${lease.name}): try the erasure again`);
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    return await run();
  } finally {
    await releaseLease(db, lease, owner).catch(() => {});
  }
}

async function rewriteFile(dir: string, kind: TArchiveKind, name: string, matches: (r: Record<string, unknown>) => boolean, at: string): Promise<number> {
  const file = path.join(dir, name);
  const lines = gunzipSync(await readFileBytes(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean);
  let erased = 0;
  const out = lines.map((line) => {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (r.erased || !matches(r)) return line;
    erased++;
    return JSON.stringify({ ...Object.fromEntries(Object.entries(r).filter(([k]) => !DONOR_FIELDS.includes(k))), erased: at });
  });
  if (erased === 0) return 0;
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(gzipSync(Buffer.from(out.map((l) => `${l}\n`).join(''))));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  await fsyncPath(dir);
  const m = await readManifest(dir, kind);
  m.files[name] = { records: out.length, bytes: (await stat(file)).size, sha256: await sha256Of(file) };
  await writeManifest(dir, m);
  return erased;
}

async function readFileBytes(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Erases the records of `kind` that `matches` from every archived file (a donor erasure), under the
 * purge's lease `lease`; the count of records erased. Nothing to do without ARCHIVE_DIR. Each file is
 * read whole into memory: files are daily.
 */
export async function eraseFromArchive(kind: TArchiveKind, lease: TLease, matches: (r: Record<string, unknown>) => boolean): Promise<number> {
  const dir = archiveDir();
  if (!dir) return 0;
  const names = archiveFiles(await readdir(dir).catch(() => [] as string[]), kind).sort();
  if (!names.length) return 0;
  const at = new Date().toISOString();
  return leased(lease, () =>
    queued(async () => {
      await repair(dir, kind);
      let n = 0;
      for (const name of names) n += await rewriteFile(dir, kind, name, matches, at);
      return n;
    }),
  );
}
