import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';

// Gzip tarballs written entry by entry from their headers, for what `tar` itself would not make:
// entries that leave the folder, links, and bombs (large when unpacked, small on disk).

export type TTarEntry = {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link';
  mode?: number;
  linkpath?: string;
  /** The body, or `size` zeros. */
  body?: Buffer;
  size?: number;
};

const BLOCK = 64 * 1024;

/**
 * 64 KiB of zeros, compressed once and repeated as gzip members of their own (one gzip stream may
 * hold many): about 680 times smaller, below tar's own limit (1000), so a bomb of any size is
 * written at once and tar alone would unpack it.
 */
const ZEROS = gzipSync(Buffer.alloc(BLOCK), { level: 9 });

function* bodyOf(e: TTarEntry): Generator<Buffer> {
  if (e.body) {
    yield gzipSync(e.body);
    return;
  }
  const size = e.size ?? 0;
  for (let done = 0; done < size; done += BLOCK) yield size - done >= BLOCK ? ZEROS : gzipSync(Buffer.alloc(size - done));
}

/** The tarball as gzip members: headers and padding, and each entry's body. */
function* membersOf(entries: TTarEntry[]): Generator<Buffer> {
  for (const e of entries) {
    const size = e.type && e.type !== 'File' ? 0 : (e.body?.length ?? e.size ?? 0);
    const header = new Header({
      path: e.path,
      type: e.type ?? 'File',
      mode: e.mode ?? (e.type === 'Directory' ? 0o755 : 0o644),
      size,
      linkpath: e.linkpath,
      mtime: new Date(),
      uid: 0,
      gid: 0,
    });
    header.encode();
    yield gzipSync(header.block!);
    if (!size) continue;
    yield* bodyOf(e);
    if (size % 512) yield gzipSync(Buffer.alloc(512 - (size % 512)));
  }
  yield gzipSync(Buffer.alloc(1024)); // the end: two zero blocks
}

/** Writes `entries` as a gzip tarball to `file`; its size on disk. */
export async function writeTarball(file: string, entries: TTarEntry[]): Promise<number> {
  await pipeline(Readable.from(membersOf(entries)), fs.createWriteStream(file, { mode: 0o600 }));
  return fs.statSync(file).size;
}
