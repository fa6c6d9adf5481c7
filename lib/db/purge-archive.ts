import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { dbKind, getDb } from './client';
import type { TPurgeStep } from './purge-loop';
import { releaseLease, takeLease, type TLease } from './take-lease';

// Archive before purge (ARCHIVE_DIR, optional): what the retention purge of either half is about to
// take — a receipt's body and headers, a message's payload, an attempt's answer — is first appended
// to a daily gzip NDJSON file of its kind (`receipts-2026-11-24.ndjson.gz`, `messages-…`,
// `attempts-…`; the day is the purge's, UTC), one gzip member per batch (concatenated members are
// one valid gzip stream: `zcat` reads the whole file), written and fsynced before the batch's purge
// statement runs. Beside them, `manifest-<kind>.json`: per file its records and bytes, written (temp
// file, fsync, rename) after the member and before the purge, and its SHA-256 when the pass ends
// (null until then).
//
// A crash loses nothing: during the write, the rows are not purged yet and the partial member
// beyond the manifest's bytes is cut off at the next start; after the write and before the purge,
// the batch is archived again by the next pass (a record may appear twice in the archive, never
// zero times: readers keep the last copy of an id). Per kind one writer at a time: the purge of each
// half runs under its lease, and this process queues its own appends.
//
// A donor erasure rewrites the files that hold the donor (eraseFromArchive): each matching record
// keeps its skeleton (ids, times, hashes) and loses its body, headers, payload or answer; the file
// is written anew (temp file, fsync, rename) under the purge's lease, so no append is lost to it.

export type TArchiveKind = 'receipts' | 'messages' | 'attempts';
/** sha256: null while the purge is appending to the file; set when a pass ends (sealArchive). */
type TFileEntry = { records: number; bytes: number; sha256: string | null };
type TManifest = { kind: TArchiveKind; files: Record<string, TFileEntry> };

const state = processSingleton('purge-archive', () => ({ queue: Promise.resolve() as Promise<unknown>, repaired: new Set<string>() }));

export const archiveDir = (): string | null => env.ARCHIVE_DIR ?? null;
const manifestPath = (dir: string, kind: TArchiveKind) => path.join(dir, `manifest-${kind}.json`);
export const archiveFileName = (kind: TArchiveKind, at = new Date()) => `${kind}-${at.toISOString().slice(0, 10)}.ndjson.gz`;

async function readManifest(dir: string, kind: TArchiveKind): Promise<TManifest> {
  const file = await open(manifestPath(dir, kind), 'r').catch(() => null);
  if (!file) return { kind, files: {} };
  try {
    return JSON.parse(await file.readFile('utf8')) as TManifest;
  } finally {
    await file.close();
  }
}

async function fsyncPath(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function writeManifest(dir: string, m: TManifest): Promise<void> {
  const target = manifestPath(dir, m.kind);
  const tmp = `${target}.tmp`;
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(`${JSON.stringify(m, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, target);
  await fsyncPath(dir);
}

async function sha256Of(file: string): Promise<string> {
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
async function repair(dir: string, kind: TArchiveKind): Promise<void> {
  const m = await readManifest(dir, kind);
  let changed = false;
  for (const name of (await readdir(dir)).filter((n) => n.startsWith(`${kind}-`) && n.endsWith('.ndjson.gz'))) {
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

async function appendNow(dir: string, kind: TArchiveKind, records: readonly object[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (!state.repaired.has(kind)) {
    await repair(dir, kind);
    state.repaired.add(kind);
  }
  const name = archiveFileName(kind);
  const file = path.join(dir, name);
  const member = gzipSync(Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join('')));
  const handle = await open(file, 'a');
  try {
    await handle.write(member);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsyncPath(dir); // the file's name, when this member made it
  const m = await readManifest(dir, kind);
  const entry = m.files[name] ?? { records: 0, bytes: 0, sha256: null };
  // The file's hash waits for the pass's end: hashing a growing daily file after every batch would
  // cost a backlog's purge O(n²) reads.
  m.files[name] = { records: entry.records + records.length, bytes: (await stat(file)).size, sha256: null };
  await writeManifest(dir, m);
}

/** Appends `records` to today's file of `kind`, durably, and counts them in the manifest. */
export function appendArchive(kind: TArchiveKind, records: readonly object[]): Promise<void> {
  const dir = archiveDir();
  if (!dir || records.length === 0) return Promise.resolve();
  const next = state.queue.then(() => appendNow(dir, kind, records));
  state.queue = next.catch(() => {});
  return next;
}

/** Repairs every kind's files now (a pass starts): a crash's partial member never stays in a file `zcat` reads. */
export async function repairArchive(kinds: readonly TArchiveKind[]): Promise<void> {
  const dir = archiveDir();
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const kind of kinds) {
    const run = state.queue.then(() => repair(dir, kind));
    state.queue = run.catch(() => {});
    await run;
    state.repaired.add(kind);
  }
}

/** Hashes every file of `kinds` whose manifest entry waits for it (a pass ends; its files are complete). */
export async function sealArchive(kinds: readonly TArchiveKind[]): Promise<void> {
  const dir = archiveDir();
  if (!dir) return;
  for (const kind of kinds) {
    const run = state.queue.then(async () => {
      const m = await readManifest(dir, kind);
      const open = Object.entries(m.files).filter(([, e]) => e.sha256 === null);
      if (!open.length) return;
      for (const [name, e] of open) m.files[name] = { ...e, sha256: await sha256Of(path.join(dir, name)) };
      await writeManifest(dir, m);
    });
    state.queue = run.catch(() => {});
    await run;
  }
}

/**
 * A purge step that archives first when ARCHIVE_DIR is set: `select` names a batch and what to
 * archive of it, the records are appended, then `purge` acts on exactly those ids. Without
 * ARCHIVE_DIR the step is `plain` (one statement: select and purge together).
 */
export function archivedStep(
  what: string,
  plain: (limit: number) => Promise<number>,
  select: (limit: number) => Promise<{ ids: unknown[]; records: { kind: TArchiveKind; record: object }[] }>,
  purge: (ids: unknown[]) => Promise<number>,
): TPurgeStep {
  return {
    what,
    run: async (limit) => {
      if (!archiveDir()) return plain(limit);
      const { ids, records } = await select(limit);
      if (ids.length === 0) return 0;
      for (const kind of ['receipts', 'messages', 'attempts'] as const) {
        await appendArchive(
          kind,
          records.filter((r) => r.kind === kind).map((r) => r.record),
        );
      }
      return purge(ids);
    },
  };
}

/** The fields an erased archive record loses: what carried the donor. */
const DONOR_FIELDS = ['body', 'headers', 'query', 'payload', 'response'];

async function leased<T>(lease: TLease, run: () => Promise<T>): Promise<T> {
  if ((await dbKind()) !== 'postgres') return run();
  const db = await getDb();
  const owner = `${lease.name}-erasure-${randomUUID()}`;
  // The purge holds it for a tick (about a second) at a time: wait for a gap, up to half a minute.
  for (const deadline = Date.now() + 30_000; !(await takeLease(db, lease, owner, 60_000)); ) {
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
  const lines = gunzipSync(await readFileBytes(file)).toString('utf8').split('\n').filter(Boolean);
  let erased = 0;
  const out = lines.map((line) => {
    const r = JSON.parse(line) as Record<string, unknown>;
    if (r.erased || !matches(r)) return line;
    erased++;
    return JSON.stringify({ ...Object.fromEntries(Object.entries(r).filter(([k]) => !DONOR_FIELDS.includes(k))), erased: at });
  });
  if (erased === 0) return 0;
  const tmp = `${file}.tmp`;
  const handle = await open(tmp, 'w');
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
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(`${kind}-`) && n.endsWith('.ndjson.gz')).sort();
  if (!names.length) return 0;
  const at = new Date().toISOString();
  return leased(lease, () => {
    const run = state.queue.then(async () => {
      await repair(dir, kind);
      let n = 0;
      for (const name of names) n += await rewriteFile(dir, kind, name, matches, at);
      return n;
    });
    state.queue = run.catch(() => {});
    return run;
  });
}

/** Whether an archived receipt carries `email` (lower case) in its body or headers. */
export function receiptMentions(r: Record<string, unknown>, email: string): boolean {
  const body = typeof r.body === 'string' ? Buffer.from(r.body, 'base64').toString('utf8').toLowerCase() : '';
  return body.includes(email) || JSON.stringify(r.headers ?? '').toLowerCase().includes(email);
}
