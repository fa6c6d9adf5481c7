import { driverRows } from './query';

// Whether a PostgreSQL store is serving other work now: the retention purge's row-by-row batches wait
// for a quiet moment (purge-loop.ts), as gh-ost and pt-archiver throttle on the server's running
// threads. Measured (bench year, 2 cores, 64 ingest connections): batches beside ingest raised its
// p99 3.8×, mostly commits waiting on WAL flushes (IO:WALSync) behind the purges' writes.
// Quiet is no other statement running in this database (client backends only: not autovacuum, not the
// WAL writer; idle sessions do not count) at each of SAMPLES looks SAMPLE_GAP_MS apart. One statement is
// enough to be busy: ingest's receipts are group-committed (lib/db/group-commit.ts), one statement at a
// time however many requests wait, and a drop is one statement too. Several looks, because a store that
// is busy half the time is quiet at one look in two (the day-31 trace of the full-size year).

const SAMPLES = 3;
const SAMPLE_GAP_MS = 10;

const OTHERS_ACTIVE = `select count(*)::int as n from pg_stat_activity
  where datname = current_database() and backend_type = 'client backend' and state = 'active' and pid <> pg_backend_pid()`;

/** True when no other statement runs in this PostgreSQL database at any of SAMPLES looks, SAMPLE_GAP_MS apart. */
export async function storeQuiet(): Promise<boolean> {
  for (let i = 0; i < SAMPLES; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, SAMPLE_GAP_MS));
    const [{ n }] = await driverRows<{ n: number }>(OTHERS_ACTIVE, []);
    if (n > 0) return false;
  }
  return true;
}
