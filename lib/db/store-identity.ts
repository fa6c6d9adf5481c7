import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { env } from '@/lib/env';

// Which store this process's settings name — the embedded one in DATA_DIR, or a PostgreSQL
// database — said to people (the password masked) and as a short digest, so two processes can tell
// whether they work on the same store without either showing where it is: the app answers its
// digest on GET /api/health, and the console CLI compares it with its own (lib/cli/store-report.ts).
// The digest is of the store's place (DATA_DIR's real path; PostgreSQL's host, port and database),
// not of its contents: a restored copy in another DATA_DIR is another store.

export type TStore = { kind: 'embedded'; dataDir: string } | { kind: 'postgres'; url: string };

/** The store these settings name (DATA_DIR made absolute). */
export function configuredStore(settings: { DATABASE_URL?: string; DATA_DIR: string } = env): TStore {
  return settings.DATABASE_URL ? { kind: 'postgres', url: settings.DATABASE_URL } : { kind: 'embedded', dataDir: path.resolve(settings.DATA_DIR) };
}

/** A PostgreSQL URL without its password: `postgres://gc:****@db:5432/console` (unreadable: the words "an unreadable URL"). */
export function maskedDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '****';
    for (const key of [...url.searchParams.keys()]) if (/pass|secret|key/i.test(key)) url.searchParams.set(key, '****');
    return url.toString();
  } catch {
    return 'an unreadable URL';
  }
}

/** "the embedded store in DATA_DIR=/srv/console/.data" or "PostgreSQL postgres://gc:****@db:5432/console". */
export function describeStore(store: TStore): string {
  return store.kind === 'embedded' ? `the embedded store in DATA_DIR=${store.dataDir}` : `PostgreSQL ${maskedDatabaseUrl(store.url)}`;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;

/** The store's place in one spelling: DATA_DIR's real path; PostgreSQL's host (loopback names as one), port and database. */
function place(store: TStore): string {
  if (store.kind === 'embedded') {
    try {
      return `embedded:${fs.realpathSync(store.dataDir)}`;
    } catch {
      return `embedded:${store.dataDir}`; // not made yet
    }
  }
  try {
    const url = new URL(store.url);
    const host = LOOPBACK.test(url.hostname) ? 'loopback' : url.hostname.toLowerCase();
    const database = decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username) || 'postgres';
    return `postgres:${host}:${url.port || '5432'}/${database}`;
  } catch {
    return `postgres:${store.url}`;
  }
}

/** 16 hex digits naming the store's place: equal for two processes on the same store, telling nothing of where it is. */
export function storeDigest(store: TStore): string {
  return createHash('sha256').update(place(store)).digest('hex').slice(0, 16);
}
