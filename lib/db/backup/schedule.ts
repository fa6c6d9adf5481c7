import fs from 'node:fs';
import path from 'node:path';
import { embeddedStore } from '@/lib/db/client';
import { unavailableReason } from '@/lib/db/store-availability';
import { formatDuration } from '@/lib/duration';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { makePrivateFolder } from '../private-files';
import { describeCounts } from './manifest';
import { BackupBusyError, describeHold, writeBackup, writeFileAtomically } from './snapshot';

// Scheduled backups of the embedded store: with BACKUP_DIR, one every BACKUP_EVERY (the first
// when the newest one there is that old, at once when there is none), each written to a temporary
// name, fsynced and renamed (snapshot.ts), the newest BACKUP_KEEP kept. A failure (a full disk, a
// folder that cannot be written) is one log line, shown on the health page, and tried again after
// a minute, doubling up to BACKUP_EVERY, without another line until it works again (that line
// says so) or fails for another reason.

const NAME = /^console-backup-(\d{8}T\d{6}(?:\d{3})?Z)\.tar\.gz$/;
const FIRST_RETRY_MS = 60_000;

export type TBackupStatus = {
  dir: string | null;
  every: string;
  keep: number;
  lastAt: Date | null;
  lastFile: string | null;
  failure: { at: Date; reason: string; failures: number } | null;
  nextAt: Date | null;
  /** When this process started the schedule (the age of "no backup yet" counts from it). */
  startedAt: Date | null;
};

type TState = {
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
  lastAt: Date | null;
  lastFile: string | null;
  failure: TBackupStatus['failure'];
  nextAt: Date | null;
  startedAt: Date | null;
};
const state = processSingleton('backup-schedule', (): TState => ({ lastAt: null, lastFile: null, failure: null, nextAt: null, startedAt: null }));

function stamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '').replace('.', '');
}

/** The backups in `dir`, oldest first (their names sort by time). */
export function listBackups(dir: string): string[] {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => NAME.test(n))
        .sort()
    : [];
}

function prune(dir: string, keep: number): void {
  const all = listBackups(dir);
  for (const name of all.slice(0, Math.max(0, all.length - keep))) fs.rmSync(path.join(dir, name), { force: true });
}

function schedule(inMs: number): void {
  state.nextAt = new Date(Date.now() + inMs);
  state.timer = setTimeout(() => void (state.running = takeScheduledBackup()), inMs);
  state.timer.unref();
}

/** Whether two failures' reasons say the same thing, whatever figures (the space left) they give. */
const sameFailure = (a: string, b: string | undefined) => b !== undefined && a.replace(/\d[\d.]*/g, 'N') === b.replace(/\d[\d.]*/g, 'N');

/** Takes one backup into BACKUP_DIR now and schedules the next. */
async function takeScheduledBackup(): Promise<void> {
  const dir = path.resolve(env.BACKUP_DIR!);
  try {
    const store = await embeddedStore();
    if (!store) return;
    makePrivateFolder(dir);
    const at = new Date();
    const file = path.join(dir, `console-backup-${stamp(at)}.tar.gz`);
    let hold = '';
    const manifest = await writeFileAtomically(file, (out) => writeBackup(store, out, { onSnapshot: (_m, times) => (hold = describeHold(times)) }));
    prune(dir, env.BACKUP_KEEP);
    const again = state.failure ? ` (working again after ${state.failure.failures} failed attempt${state.failure.failures === 1 ? '' : 's'})` : '';
    console.log(`scheduled backup written to ${file}: ${describeCounts(manifest.rowCounts)}; ${hold}${again}`);
    state.lastAt = at;
    state.lastFile = file;
    state.failure = null;
    schedule(env.BACKUP_EVERY);
  } catch (err) {
    if (err instanceof BackupBusyError) return schedule(FIRST_RETRY_MS); // the CLI's backup runs: not a failure
    const failures = (state.failure?.failures ?? 0) + 1;
    const retryMs = Math.min(env.BACKUP_EVERY, FIRST_RETRY_MS * 2 ** Math.min(failures - 1, 20));
    const reason = unavailableReason(err);
    // One line when backups start failing (or fail another way), not one per attempt: a full disk may last hours.
    if (!sameFailure(reason, state.failure?.reason))
      console.error(`scheduled backup into ${dir} failed (${reason}); trying again in ${formatDuration(retryMs)}, then less and less often`);
    state.failure = { at: new Date(), reason, failures };
    schedule(retryMs);
  } finally {
    state.running = undefined;
  }
}

/** Starts the schedule in the process that owns the embedded store; a line says why not on PostgreSQL. */
export async function startScheduledBackups(): Promise<void> {
  if (!env.BACKUP_DIR || state.timer) return;
  if (!(await embeddedStore())) {
    console.warn('BACKUP_DIR is ignored: this app stores its data in PostgreSQL (DATABASE_URL), which pg_dump backs up (docs/OPERATIONS.md).');
    return;
  }
  const dir = path.resolve(env.BACKUP_DIR);
  state.startedAt = new Date();
  const newest = listBackups(dir).at(-1);
  if (newest) {
    state.lastFile = path.join(dir, newest);
    state.lastAt = fs.statSync(state.lastFile).mtime;
  }
  // Partial files of a process that died mid-backup.
  if (fs.existsSync(dir)) for (const n of fs.readdirSync(dir)) if (/^\.console-backup-.*\.partial$/.test(n)) fs.rmSync(path.join(dir, n), { force: true });
  const due = state.lastAt ? state.lastAt.getTime() + env.BACKUP_EVERY - Date.now() : 0;
  schedule(Math.max(0, due));
}

export async function stopScheduledBackups(): Promise<null | void> {
  if (!state.timer) return null;
  clearTimeout(state.timer);
  state.timer = undefined;
  state.nextAt = null;
  await state.running;
}

/** What the health page shows of the schedule. */
export function scheduledBackupStatus(): TBackupStatus {
  return {
    dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null,
    every: formatDuration(env.BACKUP_EVERY),
    keep: env.BACKUP_KEEP,
    lastAt: state.lastAt,
    lastFile: state.lastFile,
    failure: state.failure,
    nextAt: state.nextAt,
    startedAt: state.startedAt,
  };
}
