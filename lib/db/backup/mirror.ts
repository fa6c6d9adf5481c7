import fs from 'node:fs';
import path from 'node:path';

// A copy of a folder that is brought up to date by passes, as a live migration's pre-copy: the
// first pass copies everything while the folder's owner keeps writing (the copy is inconsistent),
// and each later pass makes the copy byte-identical to the folder as it is during that pass: files
// that appeared are copied, files that went are removed, and in files that may have changed only
// the 8 KiB blocks (PostgreSQL's page) that differ are rewritten. A pass run while nothing writes
// (the snapshot's transaction) therefore leaves an exact copy of that moment, and it reads the
// changed files from the page cache instead of writing the whole folder again.
//
// "May have changed": a file whose size and modification time are those seen when it was last
// made identical is skipped, unless that time was within SETTLE_MS of that look (a write in the
// same clock tick as the look leaves the time unchanged); every other file is compared.

const BLOCK = 8192;
const CHUNK = 128 * BLOCK; // 1 MiB read from each side at a time
/** A file modified this close to the look that recorded it is compared again, whatever its time says. */
export const SETTLE_MS = 2000;

type TSeen = { size: number; mtimeNs: bigint; lookedAt: number };

export type TPassStats = {
  /** Files compared block by block (or copied whole: new ones). */
  compared: number;
  /** Bytes read from the folder for the comparison or copy. */
  read: number;
  /** Bytes written into the copy. */
  written: number;
  copiedFiles: number;
  removed: number;
  ms: number;
};

async function* walk(root: string, rel = ''): AsyncGenerator<{ rel: string; dir: boolean }> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(path.join(root, rel), { withFileTypes: true });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // a folder removed while walked
    throw e;
  }
  for (const e of entries) {
    const r = rel ? path.join(rel, e.name) : e.name;
    if (e.isDirectory()) {
      yield { rel: r, dir: true };
      yield* walk(root, r);
    } else if (e.isFile()) yield { rel: r, dir: false };
  }
}

export class FolderMirror {
  private readonly seen = new Map<string, TSeen>();
  private readonly a = Buffer.allocUnsafe(CHUNK);
  private readonly b = Buffer.allocUnsafe(CHUNK);

  constructor(
    readonly source: string,
    readonly target: string,
  ) {}

  /** First pass: copies every file (a copy-on-write clone where the filesystem has one). `target` must not exist. */
  async copyAll(): Promise<TPassStats> {
    const started = Date.now();
    const stats: TPassStats = { compared: 0, read: 0, written: 0, copiedFiles: 0, removed: 0, ms: 0 };
    await fs.promises.mkdir(this.target);
    for await (const { rel, dir } of walk(this.source)) {
      if (dir) {
        await fs.promises.mkdir(path.join(this.target, rel), { recursive: true });
        continue;
      }
      const st = await this.look(rel);
      if (!st) continue; // gone since listed
      await fs.promises.copyFile(path.join(this.source, rel), path.join(this.target, rel), fs.constants.COPYFILE_FICLONE);
      this.seen.set(rel, st);
      stats.copiedFiles++;
      stats.read += st.size;
      stats.written += st.size;
    }
    stats.ms = Date.now() - started;
    return stats;
  }

  /** A later pass: the copy made identical to the folder as it is now (exactly so if nothing writes meanwhile). */
  async update(): Promise<TPassStats> {
    const started = Date.now();
    const stats: TPassStats = { compared: 0, read: 0, written: 0, copiedFiles: 0, removed: 0, ms: 0 };
    const present = new Set<string>();
    for await (const { rel, dir } of walk(this.source)) {
      present.add(rel);
      if (dir) {
        await fs.promises.mkdir(path.join(this.target, rel), { recursive: true });
        continue;
      }
      const st = await this.look(rel);
      if (!st) {
        present.delete(rel);
        continue;
      }
      const before = this.seen.get(rel);
      if (before && before.size === st.size && before.mtimeNs === st.mtimeNs && Number(before.mtimeNs / 1_000_000n) < before.lookedAt - SETTLE_MS) continue;
      if (!before) stats.copiedFiles++;
      stats.compared++;
      await this.bringUpToDate(rel, stats);
      this.seen.set(rel, st);
    }
    // Whatever the copy holds that the folder no longer does (deepest first, so folders are empty when removed).
    const inCopy: { rel: string; dir: boolean }[] = [];
    for await (const e of walk(this.target)) inCopy.push(e);
    for (const { rel, dir } of inCopy.reverse()) {
      if (present.has(rel)) continue;
      await fs.promises.rm(path.join(this.target, rel), { recursive: dir, force: true });
      this.seen.delete(rel);
      stats.removed++;
    }
    stats.ms = Date.now() - started;
    return stats;
  }

  private async look(rel: string): Promise<TSeen | null> {
    const lookedAt = Date.now();
    try {
      const st = await fs.promises.stat(path.join(this.source, rel), { bigint: true });
      return { size: Number(st.size), mtimeNs: st.mtimeNs, lookedAt };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Rewrites the blocks of the copy of `rel` that differ from the folder's, and cuts it to the folder's length. */
  private async bringUpToDate(rel: string, stats: TPassStats): Promise<void> {
    let src: fs.promises.FileHandle;
    try {
      src = await fs.promises.open(path.join(this.source, rel), 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // removed since the look: the next pass removes the copy
      throw e;
    }
    const dst = await fs.promises.open(path.join(this.target, rel), fs.constants.O_RDWR | fs.constants.O_CREAT, 0o600);
    try {
      let pos = 0;
      for (;;) {
        const { bytesRead: n } = await src.read(this.a, 0, CHUNK, pos);
        if (n === 0) break;
        stats.read += n;
        const { bytesRead: m } = await dst.read(this.b, 0, n, pos);
        if (m !== n || !this.a.subarray(0, n).equals(this.b.subarray(0, n))) {
          for (let off = 0; off < n; off += BLOCK) {
            const end = Math.min(n, off + BLOCK);
            if (end <= m && this.a.subarray(off, end).equals(this.b.subarray(off, end))) continue;
            await dst.write(this.a, off, end - off, pos + off);
            stats.written += end - off;
          }
        }
        pos += n;
      }
      if ((await dst.stat()).size !== pos) await dst.truncate(pos);
    } finally {
      await Promise.all([src.close(), dst.close()]);
    }
  }
}
