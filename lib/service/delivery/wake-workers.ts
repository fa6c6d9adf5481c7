import { getDb, type DbOrTx, type Tx } from '@/lib/db/client';
import { driverRows, queryRows, sql } from '@/lib/db/query';
import { processSingleton } from '@/lib/process-singleton';
import { DELIVERIES_CHANNEL } from './enqueue';

// The workers' wake-up, sent after the commit of whatever queued deliveries or made some due, never
// inside it: the grant's fixed statement calls wakeWorkers() once it has run; a transaction that
// queues (an event, a grant with an Idempotency-Key, a recover, a resume) says so with
// wakeAfterCommit(tx), and its owner, wakingTransaction, wakes them once it has committed. PostgreSQL
// serializes the commits of transactions that NOTIFY (one lock for the whole database, held until the
// commit is flushed): with a NOTIFY in every grant's statement, each grant committed alone, its WAL
// flush behind the one before, and one account's burst made every other account's grant wait in that
// line — the peak bench's sessions sampled during a burst of 83 grants/s found the grants waiting on
// that lock (Lock:object) more than on anything else, and the other webhooks' grants were answered
// 20–50× slower than alone. Without it the grants' commits share their WAL flushes, and one NOTIFY at
// a time wakes the workers for every grant committed before it: one asked while one is out is sent
// once that one is done, so each committed grant is followed by a NOTIFY sent after its commit.
// A wake-up that fails (the store is down), or a process that ends between a commit and its NOTIFY,
// leaves its deliveries to the workers' poll (DELIVERY_POLL_MS, worker-state.ts's idlePollMs).

type TWaker = { sending: boolean; again: boolean };

function send(w: TWaker): void {
  w.sending = true;
  w.again = false;
  driverRows(`select pg_notify($1::text, '')`, [DELIVERIES_CHANNEL], 'wake_workers')
    .catch(() => {}) // the workers' poll finds what it announced
    .finally(() => {
      w.sending = false;
      if (w.again) send(w);
    });
}

/** Wakes the listening workers once this process's committed deliveries are visible: now, or after the NOTIFY already out. */
export function wakeWorkers(): void {
  const w = processSingleton<TWaker>('wake-workers', () => ({ sending: false, again: false }));
  if (w.sending) w.again = true;
  else send(w);
}

/** The transactions wakingTransaction opened, each with whether it queued deliveries or made some due (wakeAfterCommit). */
const queuedIn = new WeakMap<object, boolean>();

/**
 * `db` queued deliveries or made some due: the workers are woken once it commits. The database itself (a statement of its
 * own, committed): now. A transaction wakingTransaction opened: after its commit. Any other transaction: a NOTIFY in it,
 * which PostgreSQL sends at its commit (the slower way, in the commits' one line, but never lost: a transaction opened
 * with a plain db.transaction — a manual attempt's that recovers a webhook and emits its event — once woke nobody, and
 * its deliveries waited for the workers' poll).
 */
export async function wakeAfterCommit(db: DbOrTx): Promise<void> {
  // A transaction has a rollback(); the database itself does not, and its statements have committed.
  if (typeof (db as { rollback?: unknown }).rollback !== 'function') wakeWorkers();
  else if (queuedIn.has(db)) queuedIn.set(db, true);
  else await queryRows(db, sql`select pg_notify(${DELIVERIES_CHANNEL}, '')`);
}

/** db.transaction(work), and once it has committed, the workers woken if it queued deliveries (wakeAfterCommit). */
export async function wakingTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  let queued = false;
  const result = await (
    await getDb()
  ).transaction(async (tx) => {
    queuedIn.set(tx, false);
    const out = await work(tx);
    queued = queuedIn.get(tx) === true;
    return out;
  });
  if (queued) wakeWorkers();
  return result;
}
