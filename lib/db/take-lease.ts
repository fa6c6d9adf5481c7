import { sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { dbKind, getDb, type DbOrTx } from './client';
import { queryRows } from './query';

// A named lease: with several processes on one PostgreSQL, whoever holds it does the job (a purge
// pass, the alert evaluation) and the others skip their turn. A holder that dies leaves a lease that
// runs out after `ms`. Each half keeps its leases in its own schema (service.leases for the service's
// purge, console.leases for the console's purge and alerts): neither half writes the other's.

export type TLease = { table: 'service.leases' | 'console.leases'; name: string };

const TABLES = { 'service.leases': sql`service.leases`, 'console.leases': sql`console.leases` };

/** Takes the lease when it is free, run out, or already `owner`'s; true when `owner` now holds it. */
export async function takeLease(db: DbOrTx, lease: TLease, owner: string, ms: number): Promise<boolean> {
  const rows = await queryRows<{ owner: string }>(
    db,
    sql`insert into ${TABLES[lease.table]} as l (name, owner, until) values (${lease.name}, ${owner}, now() + ${ms}::int * interval '1 millisecond')
        on conflict (name) do update set owner = excluded.owner, until = excluded.until
          where l.until < now() or l.owner = excluded.owner
        returning owner`,
  );
  return rows.length === 1;
}

/** Gives the lease back at once (only if `owner` still holds it). */
export async function releaseLease(db: DbOrTx, lease: TLease, owner: string): Promise<void> {
  await queryRows(db, sql`delete from ${TABLES[lease.table]} where name = ${lease.name} and owner = ${owner} returning name`);
}

/**
 * Runs `job` holding `lease` on PostgreSQL, given back when it ends; null, without running it, when
 * another process holds it. On the embedded store (one process's) it runs at once.
 */
export async function underLease<T>(lease: TLease, ms: number, job: () => Promise<T>): Promise<T | null> {
  if ((await dbKind()) !== 'postgres') return job();
  const db = await getDb();
  const owner = `${lease.name}-${randomUUID()}`;
  if (!(await takeLease(db, lease, owner, ms))) return null;
  try {
    return await job();
  } finally {
    await releaseLease(db, lease, owner).catch(() => {});
  }
}
