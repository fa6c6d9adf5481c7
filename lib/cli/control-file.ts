import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// How a CLI finds the running app that owns the embedded store, and proves it may ask it: a file
// in DATA_DIR, readable by the machine's user only (mode 0600), naming the app's loopback control
// port and a random token. The app writes it once it listens and removes it when it stops; a file
// left by a process that was killed names a port nobody answers on, and the CLI then opens the
// store itself. The token is compared in constant time and never logged.

export const CONTROL_FILE = 'control.json';

export type TControl = { port: number; token: string; pid: number };

export function controlFilePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), CONTROL_FILE);
}

export function newControlToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Writes the file whole (a temporary name, mode 0600 from creation, then a rename) so a reader never sees half of it. */
export function writeControlFile(dataDir: string, control: TControl): void {
  const file = controlFilePath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(control), { mode: 0o600, flag: 'w' });
  fs.chmodSync(tmp, 0o600); // a file left by a crash kept its old mode
  fs.renameSync(tmp, file);
}

/** The control file's contents, or null when there is none (or it is unreadable: no app to ask). */
export function readControlFile(dataDir: string): TControl | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(controlFilePath(dataDir), 'utf8')) as Partial<TControl>;
    if (!Number.isInteger(parsed.port) || typeof parsed.token !== 'string' || !Number.isInteger(parsed.pid)) return null;
    return parsed as TControl;
  } catch {
    return null;
  }
}

/** Removes the file if it is this process's. */
export function removeControlFile(dataDir: string): void {
  if (readControlFile(dataDir)?.pid === process.pid) fs.rmSync(controlFilePath(dataDir), { force: true });
}

/** Whether `presented` is `token`, in time that does not depend on where they differ (both hashed to one length first). */
export function tokenMatches(presented: string, token: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}
