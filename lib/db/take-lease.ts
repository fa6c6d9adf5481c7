import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from './client';

// A named lease in console.leases: with several processes on one PostgreSQL, whoever holds it does
// the job (the alert evaluation) and the others skip their turn. A holder that dies leaves a lease
// that runs out after `ms`.

/** Takes the lease when it is free, run out, or already `owner`'s; true when `owner` now holds it. */
export async function takeLease(db: DbOrTx, name: string, owner: string, ms: number): Promise<boolean> {
  const rows = await queryRows<{ owner: string }>(
    db,
    sql`insert into console.leases (name, owner, until) values (${name}, ${owner}, now() + ${ms}::int * interval '1 millisecond')
        on conflict (name) do update set owner = excluded.owner, until = excluded.until
          where console.leases.until < now() or console.leases.owner = excluded.owner
        returning owner`,
  );
  return rows.length === 1;
}

/** Gives the lease back at once (only if `owner` still holds it). */
export async function releaseLease(db: DbOrTx, name: string, owner: string): Promise<void> {
  await queryRows(db, sql`delete from console.leases where name = ${name} and owner = ${owner} returning name`);
}
