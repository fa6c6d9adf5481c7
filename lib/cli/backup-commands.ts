import fs from 'node:fs';
import path from 'node:path';
import { describeCounts, type TManifest } from '@/lib/db/backup/manifest';
import { restoreBackup } from '@/lib/db/backup/restore';
import { writeBackup, writeFileAtomically } from '@/lib/db/backup/snapshot';
import { getDb } from '@/lib/db/client';
import { acquireDataDirLock, releaseDataDirLock } from '@/lib/db/lock';
import { keepFilesPrivate, tightenTree } from '@/lib/db/private-files';
import { configuredStore, describeStore } from '@/lib/db/store-identity';
import { env } from '@/lib/env';
import type { TCommandIo } from './console-commands';
import { runningApp } from './control-client';
import { reportStore, type TDoneBy } from './store-report';

// `npm run console -- backup --out FILE` and `restore --from FILE` (lib/db/backup/). A backup is
// taken by the running app when one owns DATA_DIR (over loopback, control-client.ts), else by
// this process on the store as it is (opened without migrating it); on PostgreSQL, pg_dump's job.

const onPostgres = (verb: string) =>
  `This app stores its data in ${describeStore(configuredStore())} (DATABASE_URL): ${verb} with pg_dump and pg_restore ` +
  '(pg_dump --format=custom --schema=service --schema=console --schema=drizzle "$DATABASE_URL" > console.dump), as docs/OPERATIONS.md shows.';

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** Connection refused: the control file outlived its app (killed); the store is then this process's to open. */
function refused(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
}

async function backupStopped(out: fs.WriteStream): Promise<TManifest> {
  const dir = path.resolve(env.DATA_DIR);
  if (!fs.existsSync(path.join(dir, 'pg', 'PG_VERSION'))) throw new Error(`There is no embedded store in ${dir} to back up (set DATA_DIR to the app's).`);
  keepFilesPrivate(); // its staging copy goes beside the store
  acquireDataDirLock(dir);
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(path.join(dir, 'pg'));
  try {
    await client.waitReady;
    tightenTree(dir); // what PGlite made as it opened (private-files.ts)
    return await writeBackup({ client, dir }, out);
  } finally {
    await client.close().catch(() => {});
    releaseDataDirLock(dir);
  }
}

export async function backupCommand(file: string | undefined, io: TCommandIo): Promise<number> {
  if (!file) {
    io.err('backup needs --out <file.tar.gz>.');
    return 2;
  }
  if (env.DATABASE_URL) {
    io.err(onPostgres('back it up and restore it'));
    return 2;
  }
  const target = path.resolve(file);
  if (fs.existsSync(target)) {
    io.err(`${target} already exists: choose a new name (a backup never replaces a file).`);
    return 1;
  }
  if (!fs.existsSync(path.dirname(target))) {
    io.err(`There is no folder ${path.dirname(target)} to write ${path.basename(target)} in.`);
    return 1;
  }
  const startedAt = Date.now();
  const app = await runningApp(env.DATA_DIR);
  let by = 'this process (no app is running on DATA_DIR)';
  let doneBy: TDoneBy = 'this process';
  let manifest: TManifest;
  try {
    manifest = await writeFileAtomically(target, async (out) => {
      if (app) {
        try {
          const m = await app.backup(out);
          by = `the running app (pid ${app.pid})`;
          doneBy = { appPid: app.pid };
          return m;
        } catch (err) {
          if (!refused(err)) throw err;
        }
      }
      return backupStopped(out);
    });
  } catch (err) {
    io.err(`No backup written: ${(err as Error).message.split('\n')[0]}`);
    return 1;
  }
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  io.out(
    `Backup written to ${target} (${mib(fs.statSync(target).size)} in ${seconds} s, taken by ${by}): ${describeCounts(manifest.rowCounts)}; migration ${manifest.lastMigration ?? 'none'}.`,
  );
  io.out(JSON.stringify({ file: target, bytes: fs.statSync(target).size, manifest }));
  await reportStore(io, doneBy);
  return 0;
}

export async function restoreCommand(file: string | undefined, io: TCommandIo): Promise<number> {
  if (!file) {
    io.err('restore needs --from <file.tar.gz>.');
    return 2;
  }
  if (env.DATABASE_URL) {
    io.err(onPostgres('restore it'));
    return 2;
  }
  const manifest = await restoreBackup(path.resolve(file), env.DATA_DIR);
  io.out(
    `Restored ${path.resolve(file)} into ${path.resolve(env.DATA_DIR)}: ${describeCounts(manifest.rowCounts)} (taken ${manifest.createdAt} by release ${manifest.appVersion}, migration ${manifest.lastMigration ?? 'none'}).`,
  );
  await getDb(); // migrated now, as an upgrade is: the app starts on it at once
  io.out('Migrated to this release. Start the app on this DATA_DIR.');
  await reportStore(io, 'this process'); // a restore goes into an empty DATA_DIR: no app runs on it
  return 0;
}
