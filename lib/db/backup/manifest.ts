import fs from 'node:fs';
import path from 'node:path';

// The small JSON file at the head of every backup: what it is, which release and migration made
// the store it holds, and how many rows each table had, so a restore can say what it brought back
// and check that it brought back all of it.

export const BACKUP_FORMAT = 'giving-connect-console-backup';
export const BACKUP_FORMAT_VERSION = 1;

export type TManifest = {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  createdAt: string;
  appVersion: string;
  store: 'pglite';
  postgres: string;
  /** The last migration applied to the store (its tag in lib/db/migrations), null for a store never migrated. */
  lastMigration: string | null;
  /** "schema.table" → rows, for every table of the app's two schemas. */
  rowCounts: Record<string, number>;
};

/** What the manifest needs of a connection: PGlite's client or one of its transactions. */
export type TQuerier = { query: <T>(text: string, params?: unknown[]) => Promise<{ rows: T[] }> };

const ROOT = process.cwd();

function appVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The migrations' tags by the time drizzle records for each (its `created_at`). */
export function migrationTags(): Map<number, string> {
  const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'lib/db/migrations/meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return new Map(journal.entries.map((e) => [e.when, e.tag]));
}

/** The tag of the store's last applied migration (null: none; its time when this release does not know it). */
export async function lastMigration(q: TQuerier): Promise<string | null> {
  const [{ exists }] = (await q.query<{ exists: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`)).rows;
  if (!exists) return null;
  const rows = (
    await q.query<{ created_at: string }>('select created_at::text as created_at from drizzle.__drizzle_migrations order by created_at desc limit 1')
  ).rows;
  if (!rows.length) return null;
  const when = Number(rows[0].created_at);
  return migrationTags().get(when) ?? `unknown migration of ${new Date(when).toISOString()}`;
}

/** Exact row counts of every table of the `service` and `console` schemas. */
export async function rowCounts(q: TQuerier): Promise<Record<string, number>> {
  const tables = (
    await q.query<{ name: string }>(
      `select table_schema || '.' || table_name as name from information_schema.tables
        where table_schema in ('service', 'console') and table_type = 'BASE TABLE' order by 1`,
    )
  ).rows.map((r) => r.name);
  if (!tables.length) return {};
  const select = tables
    .map(
      (t, i) =>
        `select ${i} as i, count(*)::int as n from ${t
          .split('.')
          .map((p) => `"${p}"`)
          .join('.')}`,
    )
    .join(' union all ');
  const counts = (await q.query<{ i: number; n: number }>(select)).rows;
  return Object.fromEntries(counts.map(({ i, n }) => [tables[i], n]));
}

export async function buildManifest(q: TQuerier): Promise<TManifest> {
  const [{ version }] = (await q.query<{ version: string }>(`select current_setting('server_version') as version`)).rows;
  return {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    appVersion: appVersion(),
    store: 'pglite',
    postgres: version,
    lastMigration: await lastMigration(q),
    rowCounts: await rowCounts(q),
  };
}

/** The manifest in `text`, or an error saying why the file is not a backup this release reads. */
export function parseManifest(text: string, file: string): TManifest {
  let m: Partial<TManifest>;
  try {
    m = JSON.parse(text) as Partial<TManifest>;
  } catch {
    throw new Error(`${file} is not a backup of this console: its manifest.json is not JSON.`);
  }
  if (m.format !== BACKUP_FORMAT) throw new Error(`${file} is not a backup of this console (its manifest names no "${BACKUP_FORMAT}").`);
  if (typeof m.formatVersion !== 'number' || m.formatVersion > BACKUP_FORMAT_VERSION)
    throw new Error(`${file} was written by a newer release (backup format ${m.formatVersion}); restore it with that release or a later one.`);
  return m as TManifest;
}

/** "1234 receipts, 56 messages, 3 staff users": the counts a person cares about, for the CLI's lines. */
export function describeCounts(counts: Record<string, number>): string {
  const n = (k: string) => counts[k] ?? 0;
  return `${n('console.receipts')} receipts, ${n('service.messages')} messages, ${n('console.users')} staff users, ${n('console.receivers')} receivers`;
}
