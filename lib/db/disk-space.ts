import fs from 'node:fs';
import path from 'node:path';
import { isStoreUnavailable } from './store-availability';

// A start on a full disk: the embedded store cannot open (PGlite aborts), or opens and the first
// write fails. Either way the process ends with one sentence naming the data directory and the
// space left on its disk, instead of an abort or a stack. While the app runs, a full disk is
// store-availability.ts's business: 503 with Retry-After, and writes resume when space returns.

/** Below this much free space statements that may write are refused (disk-guard.ts): two WAL segments. */
export const WRITE_RESERVE = 32 * 1024 * 1024;
/** Once refused, writes resume when this much is free. */
export const RESUME_FREE = 48 * 1024 * 1024;

/** Below this much free space the embedded store is not opened: it would start with its writes refused (disk-guard.ts). */
export const MIN_FREE_TO_START = RESUME_FREE;

export class DiskFullError extends Error {
  constructor(dir: string, free: number) {
    super(
      `The disk holding the data directory ${dir} is full (${formatBytes(free)} free; the embedded store needs at least ${formatBytes(MIN_FREE_TO_START)} to start): ` +
        'free some space there, or move DATA_DIR to a larger disk, and start again.',
    );
    this.name = 'DiskFullError';
  }
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(1)} GiB`;
}

/** Bytes an unprivileged writer may still use on the disk holding `dir` (its nearest existing parent); null where the OS does not say. */
export function freeBytes(dir: string): number | null {
  let d = path.resolve(dir);
  while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
  try {
    const s = fs.statfsSync(d);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}

/** Throws DiskFullError when the disk holding `dir` has less than MIN_FREE_TO_START free. */
export function checkSpaceToStart(dir: string): void {
  const free = freeBytes(dir);
  if (free !== null && free < MIN_FREE_TO_START) throw new DiskFullError(path.resolve(dir), free);
}

/**
 * The DiskFullError that explains `err`, a failure at start of the embedded store in `dir`: a
 * write refused for want of space (ENOSPC, SQLSTATE 53100) or PGlite's bare abort, on a disk that
 * is (nearly) full. Null when the disk is not the reason.
 */
export function diskFullCause(err: unknown, dir: string): DiskFullError | null {
  if (err instanceof DiskFullError) return err;
  const free = freeBytes(dir);
  if (free === null) return null;
  const text = String((err as Error)?.message ?? err) + String(((err as Error)?.cause as Error | undefined)?.message ?? '');
  const spaceError =
    /No space left on device|ENOSPC|disk full/i.test(text) || (isStoreUnavailable(err) && /53100/.test(String((err as { code?: string })?.code ?? '')));
  if (spaceError || (/Aborted\(/.test(text) && free < 4 * MIN_FREE_TO_START)) return new DiskFullError(path.resolve(dir), free);
  return null;
}
