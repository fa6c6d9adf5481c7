import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { guardDiskSpace } from '../disk-guard';
import { checkSpaceToStart, diskFullCause } from '../disk-space';
import { acquireDataDirLock, releaseDataDirLock } from '../lock';
import { preparedQueries } from '../pglite-prepared';
import { makePrivateFolder, tightenTree } from '../private-files';
import * as schema from '../schema';
import { MIGRATIONS_FOLDER, observe, type Db, type THandle } from './handle';

// The embedded store: PGlite in DATA_DIR (a private folder, locked to one process), migrated as it
// opens; its LISTEN is PGlite's own, within this process.

const BYTEA_OID = 17;

/**
 * bytea as PGlite sends and reads it (hex text), by Buffer's native codec: PGlite's own maps and
 * joins every byte as a string, which was the largest single cost of storing a 2 KiB receipt.
 */
const pgliteBytea = {
  serializers: {
    [BYTEA_OID]: (value: unknown) => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: { [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), 'hex') },
};

export async function openPglite(dataDir: string): Promise<THandle> {
  const dir = path.resolve(dataDir);
  makePrivateFolder(dir);
  try {
    acquireDataDirLock(dir);
  } catch (err) {
    throw diskFullCause(err, dir) ?? err;
  }
  const pglite = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: PGlite;
  let db;
  let named: { query: ReturnType<typeof preparedQueries> };
  try {
    checkSpaceToStart(dir); // PGlite on a full disk aborts with no word of why
    client = new pglite.PGlite(path.join(dir, 'pg'), pgliteBytea);
    await client.waitReady;
    tightenTree(dir); // what PGlite made as it opened, whatever the umask (private-files.ts)
    named = { query: preparedQueries(client, pglite) };
    const guard = guardDiskSpace(client, dir); // before observe: its refusals are noted as the store being unavailable
    guard(named);
    observe(client, ['query', 'exec']); // a transaction's statements fail through toProblem, which notes them too
    observe(named, ['query']);
    db = drizzle({ client, schema, casing: 'snake_case' });
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (err) {
    releaseDataDirLock(dir);
    throw diskFullCause(err, dir) ?? err;
  }
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    listen: (channel, onNotify) => client.listen(channel, (payload) => onNotify(payload)),
    query: async <T>(text: string, params: unknown[], name?: string) =>
      name ? named.query<T>(text, params, name) : (await client.query<T>(text, params)).rows,
    close: async () => {
      await client.close();
      releaseDataDirLock(dir);
    },
    abandon: () => releaseDataDirLock(dir),
    embedded: { client, dir },
  };
}
