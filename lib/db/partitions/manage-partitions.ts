import { dbKind, getDb } from '../client';
import { driverRows, queryRows, sql } from '../query';
import { underLease, type TLease } from '../take-lease';
import { aheadUntil, intervalStart, nextBoundary, partitionName, type TPartitionInterval } from './interval';
import { listPartitions, type TPartition } from './list-partitions';

// The partition manager: partitions made ahead of time and dropped past a cutoff, for a table
// partitioned by range of a timestamptz (its creation time). On PostgreSQL each call holds the
// table's lease (in its half's leases table), so two processes never make or drop the same
// partition; a PGlite directory is one process's, and calls within a process wait for each other.
//
// No DEFAULT partition, by choice: PostgreSQL refuses DETACH CONCURRENTLY while a table has one, each
// new partition's ATTACH would scan it under lock, and rows that landed there could never leave by
// a drop. Instead the partitions reach a week ahead (interval.ts), made at each start and every
// minute's upkeep; rows are written with the database's now(), so none falls past them.
//
// A partition is made as a table of the parent's shape and then attached: ATTACH takes SHARE UPDATE
// EXCLUSIVE on the parent, which inserts and reads pass, where CREATE TABLE … PARTITION OF takes ACCESS
// EXCLUSIVE; the new table is empty, so its check is instant. A table referenced (receipts, by forwards) also
// locks the tables that reference it for the attach (SHARE ROW EXCLUSIVE), whose key gets the new partition's
// triggers. No partitioned table references another: deliveries had keys to messages and webhooks until migration
// 0045, receipts to receivers until 0046, and their drops locked what ingest reads (those migrations say how).
// So DDL waits at most LOCK_TIMEOUT for its locks: whatever queues behind it waits no longer than that,
// and a run that timed out tries again at the next minute (the week ahead is the margin).

export type TPartitioned = { table: string; interval: TPartitionInterval; lease: TLease };

const LEASE_MS = 10 * 60_000;
const LOCK_TIMEOUT = '1s';
const NAME = /^[a-z_][a-z0-9_]*\.[a-z_][a-z0-9_]*$/;

// One call at a time per table in this process (the lease keeps other processes out).
const chains = new Map<string, Promise<unknown>>();
export function oneAtATime<T>(table: string, job: () => Promise<T>): Promise<T> {
  const next = (chains.get(table) ?? Promise.resolve()).catch(() => {}).then(job);
  chains.set(table, next);
  return next;
}

/** Statements in one transaction, each waiting at most LOCK_TIMEOUT for its locks. */
export async function ddl(statements: string[]): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await queryRows(tx, sql.raw(`set local lock_timeout = '${LOCK_TIMEOUT}'`));
    for (const s of statements) await queryRows(tx, sql.raw(s));
  });
}

const iso = (d: Date) => `'${d.toISOString()}'`;

/**
 * Makes the partitions `p.table` lacks from the end of its last one (or the start of `now`'s interval)
 * to a week ahead; a gap left by a long stop is one partition up to the current interval. The names of
 * those made; null when another process holds the lease.
 */
export function ensurePartitions(p: TPartitioned, now = new Date()): Promise<string[] | null> {
  if (!NAME.test(p.table)) throw new Error(`not a schema-qualified table name: ${p.table}`);
  return oneAtATime(p.table, () =>
    underLease(p.lease, LEASE_MS, async () => {
      const parts = await listPartitions(p.table, { sizes: false });
      if (parts.some((x) => x.to === null && !x.isDefault)) return [];
      const ends = parts.flatMap((x) => (x.to ? [x.to.getTime()] : []));
      const current = intervalStart(now, p.interval);
      let from = ends.length ? new Date(Math.max(...ends)) : current;
      const until = aheadUntil(now, p.interval);
      const [schema, parent] = p.table.split('.');
      const made: string[] = [];
      while (from < until) {
        const to = from < current ? current : nextBoundary(from, p.interval);
        const name = `${schema}.${partitionName(parent, from)}`;
        await ddl([
          `create table ${name} (like ${p.table} including defaults including constraints including storage)`,
          `alter table ${p.table} attach partition ${name} for values from (${iso(from)}) to (${iso(to)})`,
        ]);
        made.push(name);
        from = to;
      }
      return made;
    }),
  );
}

export type TDropOptions = {
  /**
   * Called before a partition past the cutoff is detached (the archive step, a check of what must stay): false keeps it for
   * now. Not called for one whose detach began before (pending, or detached and not dropped): that was prepared then.
   */
  prepare?: (part: TPartition) => Promise<boolean>;
  /** Stops starting more drops after this long; the rest are the next call's. */
  budgetMs?: number;
};

// A partition detached and not dropped (a process killed between the two statements) is a lone table of the partition's
// name: `attempts_p20261129` in the parent's schema that is no longer anyone's partition.
const ORPHANS = `
  select format('%I.%I', n.nspname, c.relname) as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname = $1 and c.relname like $2 and c.relkind = 'r' and not c.relispartition
   order by c.relname`;

/**
 * Detaches and drops the partitions of `p.table` whose range ends at or before `cutoff`, oldest first: on PostgreSQL by
 * DETACH CONCURRENTLY (reads and writes of the table go on; one cut short is finished by FINALIZE), then DROP of the lone
 * table; on PGlite, which has no concurrent detach, DETACH and DROP in one transaction (its one connection is the store's:
 * nothing waits on the other side, and a kill leaves both done or neither). One detached and not dropped by a killed
 * process is dropped first. The names of those dropped; null when another process holds the lease.
 */
export function dropPartitionsBefore(p: TPartitioned, cutoff: Date, options: TDropOptions = {}): Promise<string[] | null> {
  if (!NAME.test(p.table)) throw new Error(`not a schema-qualified table name: ${p.table}`);
  return oneAtATime(p.table, () =>
    underLease(p.lease, LEASE_MS, async () => {
      const postgres = (await dbKind()) === 'postgres';
      const [schema, parent] = p.table.split('.');
      const dropped: string[] = [];
      for (const { name } of await driverRows<{ name: string }>(ORPHANS, [schema, `${parent.replaceAll('_', '\\_')}\\_p%`])) {
        await ddl([`drop table ${name}`]);
        dropped.push(name);
      }
      const until = Date.now() + (options.budgetMs ?? Infinity);
      for (const part of await listPartitions(p.table, { sizes: false })) {
        if (part.isDefault || part.to === null || part.to > cutoff) continue;
        if (Date.now() > until) break;
        if (!part.detachPending && options.prepare && !(await options.prepare(part))) continue;
        if (postgres) {
          // CONCURRENTLY cannot run inside a transaction: a statement of its own on the pool.
          const db = await getDb();
          await queryRows(db, sql.raw(`alter table ${p.table} detach partition ${part.name} ${part.detachPending ? 'finalize' : 'concurrently'}`));
          await ddl([`drop table ${part.name}`]);
        } else {
          await ddl([`alter table ${p.table} detach partition ${part.name}`, `drop table ${part.name}`]);
        }
        dropped.push(part.name);
      }
      return dropped;
    }),
  );
}
