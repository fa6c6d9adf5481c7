import fs from 'node:fs';
import path from 'node:path';

// PGlite is one process's database: a second process opening the same directory would corrupt it.
// A lock file holding the owner's pid refuses the second one with a clear message; a stale lock
// (its process is gone) is taken over.

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        'Stop that process first, use another DATA_DIR, or set DATABASE_URL to share a PostgreSQL database.',
    );
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function acquireDataDirLock(dir: string): void {
  const file = path.join(dir, 'owner.lock');
  for (let tries = 0; tries < 3; tries++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(file, 'utf8').trim());
      if (pid === process.pid) return;
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) throw new DataDirLockedError(dir, pid);
      fs.rmSync(file, { force: true }); // stale: its owner died
    }
  }
  throw new Error(`Could not take the lock on ${dir}`);
}

export function releaseDataDirLock(dir: string): void {
  const file = path.join(dir, 'owner.lock');
  try {
    if (Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
  } catch {
    /* already gone */
  }
}
