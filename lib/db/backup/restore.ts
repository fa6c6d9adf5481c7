import fs from 'node:fs';
import path from 'node:path';
import { acquireDataDirLock, releaseDataDirLock } from '@/lib/db/lock';
import { makePrivateFolder, tightenTree, setPrivateUmask } from '@/lib/db/private-files';
import { parseManifest, rowCounts, type TManifest } from './manifest';
import { RestoreRefusedError, unpackBackup } from './unpack-backup';

export { RestoreRefusedError };

// A backup (snapshot.ts) back into a DATA_DIR: only an empty one, so no store is ever overwritten.
// The tarball is unpacked into a folder inside DATA_DIR, its row counts checked against its
// manifest with the store opened as it was (not migrated), and only then moved into place; a
// failure leaves DATA_DIR as it was. The app (or the CLI right after) then migrates it as an upgrade does.
// Unpacking is bounded (unpack-backup.ts), and what comes out is private (0600 files in 0700
// folders, private-files.ts) whatever modes the tarball holds.

/** Refuses a DATA_DIR that holds anything: a restore never replaces a store. */
export function checkEmptyDataDir(dataDir: string): void {
  const dir = path.resolve(dataDir);
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory()) throw new RestoreRefusedError(`DATA_DIR ${dir} is a file, not a directory: restore into an empty directory.`);
  const held = fs.readdirSync(dir);
  if (held.length)
    throw new RestoreRefusedError(
      `DATA_DIR ${dir} is not empty (it holds ${held.slice(0, 3).join(', ')}${held.length > 3 ? ', …' : ''}): a restore only goes into an empty directory, ` +
        'so no store is overwritten. Stop the app, move that directory aside (or set DATA_DIR to a new one), and restore again.',
    );
}

/** Unpacks `file` into the empty `dataDir`, checks it against its manifest, and returns the manifest. */
export async function restoreBackup(file: string, dataDir: string): Promise<TManifest> {
  if (!fs.existsSync(file)) throw new RestoreRefusedError(`There is no file ${file}.`);
  checkEmptyDataDir(dataDir);
  setPrivateUmask();
  const dir = path.resolve(dataDir);
  const made = !fs.existsSync(dir);
  makePrivateFolder(dir);
  acquireDataDirLock(dir);
  const staging = fs.mkdtempSync(path.join(dir, 'restore-'));
  let failed = false;
  try {
    await unpackBackup(file, staging, dir);
    const manifestFile = path.join(staging, 'manifest.json');
    if (!fs.existsSync(manifestFile)) throw new RestoreRefusedError(`${file} is not a backup of this console: it holds no manifest.json.`);
    const manifest = parseManifest(fs.readFileSync(manifestFile, 'utf8'), file);
    if (!fs.existsSync(path.join(staging, 'pg', 'PG_VERSION'))) throw new RestoreRefusedError(`${file} holds no store (pg/ is missing or incomplete).`);
    await checkCounts(path.join(staging, 'pg'), manifest, file);
    tightenTree(staging);
    fs.renameSync(path.join(staging, 'pg'), path.join(dir, 'pg'));
    return manifest;
  } catch (err) {
    fs.rmSync(path.join(dir, 'pg'), { recursive: true, force: true });
    failed = true;
    throw err;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    releaseDataDirLock(dir);
    if (failed && made) fs.rmSync(dir, { recursive: true, force: true }); // the folder this restore made, empty again
  }
}

/** Opens the unpacked store as it was (no migration) and compares every table's rows with the manifest's. */
async function checkCounts(pgDir: string, manifest: TManifest, file: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite(pgDir);
  try {
    await client.waitReady;
    const found = await rowCounts(client);
    const wrong = Object.entries(manifest.rowCounts).filter(([table, n]) => found[table] !== n);
    if (wrong.length)
      throw new RestoreRefusedError(
        `${file} does not hold what its manifest says: ${wrong.map(([t, n]) => `${t} has ${found[t] ?? 'no table'} rows, not ${n}`).join('; ')}. Nothing was restored.`,
      );
  } finally {
    await client.close();
  }
}
