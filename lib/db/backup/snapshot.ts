import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { create } from 'tar';
import type { TEmbedded } from '@/lib/db/client';
import { formatBytes, freeBytes, RESUME_FREE } from '@/lib/db/disk-space';
import { processSingleton } from '@/lib/process-singleton';
import { buildManifest, type TManifest } from './manifest';
import { FolderMirror, type TPassStats } from './mirror';

// A backup of the embedded store: a gzip tarball of `manifest.json` and `pg/` (PGlite's data
// directory). Consistent without stopping the app: the directory is first copied to a staging
// folder beside it while statements run (mirror.ts: an inconsistent copy, then passes that rewrite
// only what changed), then PGlite, which runs one statement at a time, is held by a transaction of
// ours while the manifest's counts are taken, a CHECKPOINT writes every change to the data files,
// and a last pass makes the staging copy byte for byte the store's files at that moment. Statements
// wait only for that (the files written since the pass before, read from the page cache); the
// compression and the writing of the tarball happen after, while the app ingests. Everything
// committed before the backup began is in it; nothing committed after the hold is (the copy is a
// state the store was in).

export class BackupBusyError extends Error {
  constructor() {
    super('A backup is already being taken; try again when it is done.');
    this.name = 'BackupBusyError';
  }
}

const STAGING_PREFIX = 'backup-staging-';
const busy = processSingleton('backup-busy', () => ({ running: false }));

/** Removes staging folders a backup left when its process died (this process owns the store: no other backup runs). */
function removeStaleStaging(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(STAGING_PREFIX)) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

function sizeOf(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) n += fs.statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

/**
 * The staging copy must leave the store its reserve (disk-guard.ts): statements queued behind the
 * copy run once it ends, and one that met a full disk in a WAL write would stop the store for good.
 */
function checkRoomForStaging(dir: string): void {
  const free = freeBytes(dir);
  const needed = sizeOf(path.join(dir, 'pg')) + RESUME_FREE;
  if (free !== null && free < needed) {
    throw Object.assign(
      new Error(
        `no room for the staging copy beside the store: it needs ${formatBytes(needed)} free (the store's size and its reserve), there is ${formatBytes(free)}`,
      ),
      { code: 'ENOSPC' },
    );
  }
}

/**
 * Writes a backup of `store` to `out` (ended when done). `onSnapshot` is called once the copy is
 * taken (statements run again from then on), with the manifest. Returns the manifest.
 */
export type TSnapshotTimes = {
  /** How long statements waited: the counts, a CHECKPOINT and the last pass of the copy. */
  heldMs: number;
  /** Of which the manifest's row counts, and the CHECKPOINT. */
  countsMs: number;
  checkpointMs: number;
  /** The copy's passes before that, while statements ran. */
  precopyMs: number;
  /** The last pass: files it compared and bytes it rewrote. */
  lastPass: TPassStats;
};

/** "statements waited 0.4 s (…)": for the log line of each backup. */
export function describeHold({ heldMs, countsMs, checkpointMs, precopyMs, lastPass }: TSnapshotTimes): string {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `statements waited ${s(heldMs)} for the snapshot (copied in ${s(precopyMs)} while they ran; then row counts ${s(countsMs)}, checkpoint ${s(checkpointMs)}, ` +
    `a last pass of ${s(lastPass.ms)} that compared ${lastPass.compared} files, ${mib(lastPass.read)}, and rewrote ${mib(lastPass.written)})`
  );
}

/** Passes while statements run (after the first, whole copy) before the one that holds them. */
const MAX_PRECOPY_PASSES = 3;
/** A pass this short is close enough to the held one's to stop the passes before it. */
const SHORT_PASS_MS = 1000;

/**
 * Writes a backup of `store` to `out` (ended when done). `onSnapshot` is called once the copy is
 * taken (statements run again from then on), with the manifest and how long statements waited.
 * Returns the manifest.
 */
export async function writeBackup(
  store: TEmbedded,
  out: NodeJS.WritableStream,
  { onSnapshot }: { onSnapshot?: (m: TManifest, times: TSnapshotTimes) => void } = {},
): Promise<TManifest> {
  if (busy.running) throw new BackupBusyError();
  busy.running = true;
  const { client, dir } = store;
  let staging: string | null = null;
  try {
    removeStaleStaging(dir);
    checkRoomForStaging(dir);
    staging = fs.mkdtempSync(path.join(dir, STAGING_PREFIX));
    const started = Date.now();
    // The pre-copy, while statements run: the whole store, then passes that bring the copy up to
    // date until one is short (each reads only the files written since the one before).
    const mirror = new FolderMirror(path.join(dir, 'pg'), path.join(staging, 'pg'));
    await client.exec('checkpoint'); // most changes into the data files first: less for the passes to redo
    await mirror.copyAll();
    for (let i = 0; i < MAX_PRECOPY_PASSES; i++) if ((await mirror.update()).ms < SHORT_PASS_MS) break;
    const precopyMs = Date.now() - started;
    // Statements wait from here: the counts, a CHECKPOINT, and one pass that leaves the copy byte
    // for byte the store's files at this moment.
    const heldFrom = Date.now();
    const { manifest, countsMs, checkpointMs, lastPass } = await client.transaction(async (tx) => {
      const m = await buildManifest(tx);
      const counted = Date.now();
      await tx.exec('checkpoint');
      const checkpointed = Date.now();
      return { manifest: m, countsMs: counted - heldFrom, checkpointMs: checkpointed - counted, lastPass: await mirror.update() };
    });
    onSnapshot?.(manifest, { heldMs: Date.now() - heldFrom, countsMs, checkpointMs, precopyMs, lastPass });
    fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2), { mode: 0o600 });
    // Level 3: most of the size gone at a fraction of the default's CPU (the data files compress well).
    await pipeline(create({ gzip: { level: 3 }, cwd: staging, portable: true }, ['manifest.json', 'pg']), out);
    return manifest;
  } finally {
    if (staging) await fs.promises.rm(staging, { recursive: true, force: true }).catch(() => {});
    busy.running = false;
  }
}

/**
 * Writes `file` whole or not at all: to a temporary name beside it, fsynced, then renamed (and the
 * folder fsynced, so the rename survives a crash). `write` fills the stream it is given and ends it.
 */
export async function writeFileAtomically<T>(file: string, write: (out: fs.WriteStream) => Promise<T>): Promise<T> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  const out = fs.createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
  try {
    const result = await write(out);
    if (!out.closed)
      await new Promise<void>((resolve, reject) => (out.writableFinished ? out.close(() => resolve()) : out.once('close', resolve).once('error', reject)));
    const fd = fs.openSync(tmp, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
    const dirFd = fs.openSync(path.dirname(file), 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
    return result;
  } catch (err) {
    out.destroy();
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}
