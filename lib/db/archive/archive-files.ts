import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readdir, rename, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';

// Archive before purge (ARCHIVE_DIR, optional): what the retention purge of either half is about to
// take — a receipt's body and headers, a message's payload, an attempt's answer — is first appended
// to a daily gzip NDJSON file of its kind (`receipts-2026-11-24.ndjson.gz`, `messages-…`,
// `attempts-…`; the day is the purge's, UTC), one gzip member per batch (concatenated members are
// one valid gzip stream: `zcat` reads the whole file). Beside them, `manifest-<kind>.json`: per file
// its records and bytes, and its SHA-256 once the file is complete (null until then).
//
// This file is what writing (write-archive.ts) and erasing (erase-archive.ts) share: the files and
// their manifest, the repair after a crash, and the one queue this process's changes to them wait in.

export type TArchiveKind = 'receipts' | 'messages' | 'attempts';
/** sha256: null while the purge is appending to the file; set when a pass ends (sealArchive). */
type TFileEntry = { records: number; bytes: number; sha256: string | null };
type TManifest = { kind: TArchiveKind; files: Record<string, TFileEntry> };

const state = processSingleton('purge-archive', () => ({ queue: Promise.resolve() as Promise<unknown>, repaired: new Set<string>() }));

/** The kinds whose files this process has repaired since it started (appends repair a kind first). */
export const repairedKinds = state.repaired;

/** Runs `work` after every change to the archive this process has queued before it. */
export function queued<T>(work: () => Promise<T>): Promise<T> {
  const run = state.queue.then(work);
  state.queue = run.catch(() => {});
  return run;
}

export const archiveDir = (): string | null => env.ARCHIVE_DIR ?? null;
const manifestPath = (dir: string, kind: TArchiveKind) => path.join(dir, `manifest-${kind}.json`);
export const archiveFileName = (kind: TArchiveKind, at = new Date()) => `${kind}-${at.toISOString().slice(0, 10)}.ndjson.gz`;
/** The names of `kind`'s daily files in `dir`. */
export const archiveFiles = (names: string[], kind: TArchiveKind) => names.filter((n) => n.startsWith(`${kind}-`) && n.endsWith('.ndjson.gz'));

export async function readManifest(dir: string, kind: TArchiveKind): Promise<TManifest> {
  const file = await open(manifestPath(dir, kind), 'r').catch(() => null);
  if (!file) return { kind, files: {} };
  try {
    return JSON.parse(await file.readFile('utf8')) as TManifest;
  } finally {
    await file.close();
  }
}

export async function fsyncPath(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes the manifest anew: a temp file, fsynced, renamed over the old one. */
export async function writeManifest(dir: string, m: TManifest): Promise<void> {
  const target = manifestPath(dir, m.kind);
  const tmp = `${target}.tmp`;
  const handle = await open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(m, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, target);
  await fsyncPath(dir);
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function readTail(file: string, from: number, size: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(size - from);
    await handle.read(buf, 0, buf.length, from);
    return buf;
  } finally {
    await handle.close();
  }
}

/**
 * Makes each file of `kind` agree with its manifest after a crash: complete members beyond the
 * manifest's bytes (written, not yet counted) are counted; a partial one (the write was cut) is cut off.
 */
export async function repair(dir: string, kind: TArchiveKind): Promise<void> {
  const m = await readManifest(dir, kind);
  let changed = false;
  for (const name of archiveFiles(await readdir(dir), kind)) {
    const file = path.join(dir, name);
    const entry = m.files[name] ?? { records: 0, bytes: 0, sha256: null };
    const { size } = await stat(file);
    if (size === entry.bytes && m.files[name]) continue;
    let records = entry.records;
    let bytes = size;
    try {
      if (size > entry.bytes) records += countLines(gunzipSync(await readTail(file, entry.bytes, size)));
    } catch {
      await truncate(file, entry.bytes);
      await fsyncPath(file);
      bytes = entry.bytes;
    }
    m.files[name] = { records, bytes, sha256: await sha256Of(file) };
    changed = true;
  }
  if (changed) await writeManifest(dir, m);
}

const countLines = (buf: Buffer) => buf.reduce((n, byte) => (byte === 10 ? n + 1 : n), 0);
