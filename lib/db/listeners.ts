import { dbKind } from './client';
import { driverRows } from './query';
import { listenerName } from './drivers/postgres';
import { localListens } from './listen';
import { processSingleton } from '@/lib/process-singleton';

// Whether anyone LISTENs on a channel, so a hot write can leave out its pg_notify while nobody
// would hear it (a NOTIFY is not free: on PostgreSQL a committing transaction that notifies holds
// a database-wide lock through its commit, so notifying writes commit one at a time). The embedded
// store is this process's alone: its own LISTENs are all there are. On PostgreSQL the listening
// connections carry their channel in application_name (drivers/postgres.ts), looked for in pg_stat_activity
// at most once per LISTENERS_CHECK_MS; a listener that starts meanwhile may miss up to that long of
// notifications, so a listener re-reads once that long after it is in place (receipt-feed.ts).

export const LISTENERS_CHECK_MS = 1000;

type TSeen = { at: number; any: boolean; pending: Promise<boolean> | null };
const seen = processSingleton('db-listeners-seen', () => new Map<string, TSeen>());

async function lookUp(channel: string, entry: TSeen): Promise<boolean> {
  try {
    const [row] = await driverRows<{ any: boolean }>(
      'select exists (select 1 from pg_stat_activity where datname = current_database() and application_name = $1) as any',
      [listenerName(channel)],
    );
    entry.any = Boolean(row?.any);
  } catch {
    entry.any = true; // not known: notify, as before
  }
  entry.at = Date.now();
  entry.pending = null;
  return entry.any;
}

/** Whether a LISTEN on `channel` is in place in any process (on PostgreSQL: as seen within the last second). */
export async function anyListener(channel: string): Promise<boolean> {
  if ((await dbKind()) === 'pglite') return localListens(channel) > 0;
  let entry = seen.get(channel);
  if (!entry) seen.set(channel, (entry = { at: 0, any: true, pending: null }));
  if (Date.now() - entry.at < LISTENERS_CHECK_MS) return entry.any;
  entry.pending ??= lookUp(channel, entry);
  return entry.pending;
}
