import { mkdir, open, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { TPassState, TPurgeStep } from '../purge-loop';
import {
  archiveDir,
  archiveFileName,
  fsyncPath,
  queued,
  readManifest,
  repair,
  repairedKinds,
  sha256Of,
  writeManifest,
  type TArchiveKind,
} from './archive-files';

// Writing the archive before a purge (ARCHIVE_DIR; the files: archive-files.ts). A batch's records
// are one gzip member, written and fsynced before the batch's purge statement runs; the manifest is
// written (temp file, fsync, rename) after the member and before the purge, and each file's SHA-256
// when the pass ends.
//
// A crash loses nothing: during the write, the rows are not purged yet and the partial member
// beyond the manifest's bytes is cut off at the next start; after the write and before the purge,
// the batch is archived again by the next pass (a record may appear twice in the archive, never
// zero times: readers keep the last copy of an id). Per kind one writer at a time: the purge of each
// half runs under its lease, and this process queues its own appends.

async function appendNow(dir: string, kind: TArchiveKind, records: readonly object[]): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!repairedKinds.has(kind)) {
    await repair(dir, kind);
    repairedKinds.add(kind);
  }
  const name = archiveFileName(kind);
  const file = path.join(dir, name);
  const member = gzipSync(Buffer.from(records.map((r) => `${JSON.stringify(r)}\n`).join('')));
  const handle = await open(file, 'a', 0o600);
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
  return queued(() => appendNow(dir, kind, records));
}

/** Repairs every kind's files now (a pass starts): a crash's partial member never stays in a file `zcat` reads. */
export async function repairArchive(kinds: readonly TArchiveKind[]): Promise<void> {
  const dir = archiveDir();
  if (!dir) return;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const kind of kinds) {
    await queued(() => repair(dir, kind));
    repairedKinds.add(kind);
  }
}

/** Hashes every file of `kinds` whose manifest entry waits for it (a pass ends; its files are complete). */
export async function sealArchive(kinds: readonly TArchiveKind[]): Promise<void> {
  const dir = archiveDir();
  if (!dir) return;
  for (const kind of kinds) {
    await queued(async () => {
      const m = await readManifest(dir, kind);
      const open = Object.entries(m.files).filter(([, e]) => e.sha256 === null);
      if (!open.length) return;
      for (const [name, e] of open) m.files[name] = { ...e, sha256: await sha256Of(path.join(dir, name)) };
      await writeManifest(dir, m);
    });
  }
}

/**
 * A purge step that archives first when ARCHIVE_DIR is set: `select` names a batch and what to
 * archive of it, the records are appended, then `purge` acts on exactly those ids. Without
 * ARCHIVE_DIR the step is `plain` (one statement: select and purge together).
 */
export function archivedStep(
  what: string,
  plain: (limit: number, pass: TPassState) => Promise<number>,
  select: (limit: number, pass: TPassState) => Promise<{ ids: unknown[]; records: { kind: TArchiveKind; record: object }[] }>,
  purge: (ids: unknown[]) => Promise<number>,
): TPurgeStep {
  return {
    what,
    run: async (limit, pass) => {
      if (!archiveDir()) return plain(limit, pass);
      const { ids, records } = await select(limit, pass);
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
