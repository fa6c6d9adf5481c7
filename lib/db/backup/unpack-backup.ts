import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract, type ReadEntry } from 'tar';
import { formatBytes, freeBytes, MIN_FREE_TO_START } from '@/lib/db/disk-space';

// A backup's tarball unpacked within bounds, so a hostile or damaged file can neither fill the disk
// nor the memory: every entry is weighed by the size its header declares before any of its bytes
// are written, and the whole refused as soon as the running total passes
//   - MAX_RATIO times the tarball's size: backups of real stores unpack to 6–9 times theirs
//     (a new store 7.4×, 100,000 receipts 6.1×, the same after a purge of their bodies 6.3×,
//     100,000 identical bodies 8.8×), so 100× is far above any backup and far below a bomb;
//   - the free space of the target's disk, less what the store needs to start on it (MIN_FREE_TO_START);
// and a manifest.json over MAX_MANIFEST_BYTES is refused (it is a few kilobytes).
// It streams: 64 KiB read, inflated and written at a time (tar's own inflation of 16 MiB reads let a
// bomb hold hundreds of megabytes), and synchronously, so once it refuses nothing more is written.
// Only files and folders are taken: a link, a device, an absolute path or one with `..` refuses it.

export const MAX_RATIO = 100;
export const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Each entry counts as the disk blocks it takes: a million empty files fill a disk too. */
const BLOCK = 4096;
const CHUNK = 64 * 1024;
const TAKEN = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory']);

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

/** What the backup's entries may come to on disk, and the sentence saying which bound it is. */
function bounds(file: string, target: string): { limit: number; refusal: () => string } {
  const size = fs.statSync(file).size;
  const byRatio = size * MAX_RATIO;
  const free = freeBytes(target);
  const room = free === null ? Infinity : Math.max(0, free - MIN_FREE_TO_START);
  if (byRatio <= room) {
    return {
      limit: byRatio,
      refusal: () =>
        `${file} unpacks to more than ${formatBytes(byRatio)}, ${MAX_RATIO} times its size of ${formatBytes(size)} (a backup unpacks to under 10 times its size): it is damaged or not a backup of this console, and nothing was restored.`,
    };
  }
  return {
    limit: room,
    refusal: () =>
      `${file} unpacks to more than the ${formatBytes(room)} the disk of ${target} can take (${formatBytes(free!)} free, less the ${formatBytes(MIN_FREE_TO_START)} the store needs to start): free some space there or restore onto a larger disk; nothing was restored.`,
  };
}

function weigh(entry: ReadEntry): number {
  return Math.max(BLOCK, Math.ceil(entry.size / BLOCK) * BLOCK);
}

/** Why `entry` may not be unpacked at all, or null. */
function forbidden(file: string, entry: ReadEntry): string | null {
  const p = entry.path;
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p) || p.split(/[\\/]/).includes('..'))
    return `${file} holds an entry outside the folder it unpacks into (${JSON.stringify(p)}): it is not a backup of this console, and nothing was restored.`;
  if (!TAKEN.has(entry.type))
    return `${file} holds a ${entry.type === 'SymbolicLink' ? 'symbolic link' : entry.type === 'Link' ? 'hard link' : entry.type} (${JSON.stringify(p)}); a backup holds only files and folders, so nothing was restored.`;
  if (p === 'manifest.json' && entry.size > MAX_MANIFEST_BYTES)
    return `${file} holds a manifest.json of ${formatBytes(entry.size)}, more than the ${formatBytes(MAX_MANIFEST_BYTES)} a backup's manifest may be: it is not a backup of this console, and nothing was restored.`;
  return null;
}

/**
 * Unpacks manifest.json and pg/ of the gzip tarball `file` into the folder `cwd` (other names are
 * skipped), or throws RestoreRefusedError at the first entry past a bound (what was written stays:
 * the caller removes `cwd`). `target` is the folder whose disk must hold it all.
 */
export async function unpackBackup(file: string, cwd: string, target: string): Promise<void> {
  const { limit, refusal } = bounds(file, target);
  let total = 0;
  // The first failure: a refusal (filter) or tar's own error, both seen between two writes.
  const seen: { failure: Error | null } = { failure: null };
  const unpack = extract({
    cwd,
    sync: true,
    brotli: false,
    zstd: false,
    filter: (p, entry) => {
      if (seen.failure || !('type' in entry)) return false;
      total += weigh(entry);
      const why = forbidden(file, entry) ?? (total > limit ? refusal() : null);
      if (why) {
        seen.failure = new RestoreRefusedError(why);
        unpack.abort(seen.failure);
        return false;
      }
      return p === 'manifest.json' || p === 'pg' || p.startsWith('pg/');
    },
  });
  unpack.on('error', (err: Error) => (seen.failure ??= err));
  try {
    await pipeline(fs.createReadStream(file, { highWaterMark: CHUNK }), createGunzip({ chunkSize: CHUNK }), async (chunks: AsyncIterable<Buffer>) => {
      for await (const chunk of chunks) {
        unpack.write(chunk);
        if (seen.failure) break;
      }
      if (!seen.failure) unpack.end();
    });
  } catch (err) {
    seen.failure ??= err as Error;
  }
  const failure = seen.failure as Error | null;
  if (failure instanceof RestoreRefusedError) throw failure;
  if (failure) throw new RestoreRefusedError(`${file} could not be read as a backup (${failure.message}).`);
}
