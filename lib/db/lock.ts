import fs from 'node:fs';
import path from 'node:path';

// PGlite is one process's database: a second process opening the same directory would corrupt it.
// A lock file names the owner — its pid and, where the OS tells (Linux /proc), the time it started —
// and refuses a second process with a clear message. A lock whose owner is gone is taken over at
// once, and "gone" includes what a bare pid cannot tell: the owner died by kill -9 and its pid now
// belongs to another process (containers restart with the same small pids), or it is a zombie.

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        'Stop that process first, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database.',
    );
    this.name = 'DataDirLockedError';
  }
}

type TOwner = { pid: number; start: string | null };
type TProcess = { state: string; start: string } | null;

/** State and start time (clock ticks since boot) of `pid` from /proc; null where there is no /proc entry. */
function procStat(pid: number): TProcess {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid … starttime(22nd field) …"; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], start: fields[19] };
  } catch {
    return null;
  }
}

const hasProc = fs.existsSync('/proc/self/stat');

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isNodeProcess(pid: number): boolean {
  try {
    return /node/i.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/** Whether the process the lock names still runs: same pid, same start time, not a zombie. */
export function ownerAlive(owner: TOwner): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !signalable(owner.pid)) return false;
  if (!hasProc) return true; // no way to tell more: a live pid is the owner
  const now = procStat(owner.pid);
  if (!now || now.state === 'Z' || now.state === 'X') return false;
  // A lock of the previous release holds only a pid: its owner was a node process.
  return owner.start === null ? isNodeProcess(owner.pid) : now.start === owner.start;
}

function readOwner(file: string): TOwner {
  const text = fs.readFileSync(file, 'utf8').trim();
  if (/^\d+$/.test(text)) return { pid: Number(text), start: null };
  try {
    const parsed = JSON.parse(text) as Partial<TOwner>;
    return { pid: Number(parsed.pid), start: typeof parsed.start === 'string' ? parsed.start : null };
  } catch {
    return { pid: NaN, start: null }; // unreadable (a crash mid-write): nobody owns it
  }
}

function self(): TOwner {
  return { pid: process.pid, start: procStat(process.pid)?.start ?? null };
}

export function acquireDataDirLock(dir: string): void {
  const file = path.join(dir, 'owner.lock');
  const me = self();
  for (let tries = 0; tries < 3; tries++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readOwner(file);
      if (owner.pid === me.pid && (owner.start === null || owner.start === me.start)) return;
      if (owner.pid !== me.pid && ownerAlive(owner)) throw new DataDirLockedError(dir, owner.pid);
      fs.rmSync(file, { force: true }); // stale: its owner died
    }
  }
  throw new Error(`Could not take the lock on ${dir}`);
}

export function releaseDataDirLock(dir: string): void {
  const file = path.join(dir, 'owner.lock');
  try {
    if (readOwner(file).pid === process.pid) fs.rmSync(file, { force: true });
  } catch {
    /* already gone */
  }
}
