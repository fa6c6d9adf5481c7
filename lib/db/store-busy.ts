import { driverRows } from './query';

// Whether a PostgreSQL store is serving other work now: the retention purge's row-by-row batches wait
// for a quiet moment (purge-loop.ts), as gh-ost and pt-archiver throttle on the server's running
// threads. Measured (bench year, 2 cores, 64 ingest connections): batches beside ingest raised its
// p99 3.8×, mostly commits waiting on WAL flushes (IO:WALSync) behind the purges' writes.
// "Busy" is BUSY_SESSIONS or more other statements running in this database (client backends only: not
// autovacuum, not the WAL writer); idle and idle-in-transaction sessions do not count.

const BUSY_SESSIONS = 2;

const OTHERS_ACTIVE = `select count(*)::int as n from pg_stat_activity
  where datname = current_database() and backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid()`;

/** True while BUSY_SESSIONS or more other statements run in this PostgreSQL database. */
export async function storeBusy(): Promise<boolean> {
  const [{ n }] = await driverRows<{ n: number }>(OTHERS_ACTIVE, []);
  return n >= BUSY_SESSIONS;
}
