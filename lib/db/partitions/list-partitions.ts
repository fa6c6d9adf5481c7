import { driverRows } from '../query';

// A partitioned table's partitions as the catalog has them: each one's range (null: MINVALUE or
// MAXVALUE), its size with indexes and TOAST, and whether a DETACH CONCURRENTLY of it was cut short
// (it then waits for DETACH … FINALIZE). For the retention page, /metrics and the manager itself.

export type TPartition = { name: string; from: Date | null; to: Date | null; bytes: number; detachPending: boolean; isDefault: boolean };

const LIST = (sizes: boolean) => `
  with p as (
    select format('%I.%I', n.nspname, c.relname) as name, pg_get_expr(c.relpartbound, c.oid) as bound,
           ${sizes ? 'pg_total_relation_size(c.oid)' : '0'}::float8 as bytes, i.inhdetachpending as "detachPending"
      from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
     where i.inhparent = $1::regclass)
  select name, bytes, "detachPending", bound = 'DEFAULT' as "isDefault",
         case when bound = 'DEFAULT' or bound like '%FROM (MINVALUE)%' then null
              else substring(bound from 'FROM \\(''([^'']*)''\\)')::timestamptz end as "from",
         case when bound = 'DEFAULT' or bound like '%TO (MAXVALUE)%' then null
              else substring(bound from 'TO \\(''([^'']*)''\\)')::timestamptz end as "to"
    from p order by "from" nulls first, name`;

/**
 * The partitions of `table` (`schema.name`), oldest first. `sizes: false` for the drops and the upkeep, which do not read
 * them (bytes 0): each size is a stat of every file of the partition, its indexes' and its TOAST's (40 ms at 35 daily
 * partitions in a drop's window beside ingest).
 */
export async function listPartitions(table: string, { sizes = true }: { sizes?: boolean } = {}): Promise<TPartition[]> {
  const rows = await driverRows<TPartition>(LIST(sizes), [table]);
  return rows.map((r) => ({ ...r, bytes: Number(r.bytes), from: r.from && new Date(r.from), to: r.to && new Date(r.to) }));
}
