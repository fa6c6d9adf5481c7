import { dbKind } from '../client';
import { driverRows } from '../query';

// The embedded store has no autovacuum (PGlite is one process, with no background workers), so the
// app does its work: a table whose dead rows, inserts or changes pass autovacuum's own default
// thresholds is vacuumed and analyzed, one table per statement so ingest gets its turn between them.
// Called by each half's upkeep loop every minute (autovacuum's naptime). The thresholds (PostgreSQL's defaults):
//   vacuum   dead rows > 50 + 20 % of the table, or inserts since the last vacuum > 1000 + 20 % (the
//            visibility map, for index-only scans), or the oldest unfrozen transaction id older than
//            150M (vacuum_freeze_table_age: wraparound is far, but a store that lives for years gets there);
//   analyze  rows changed since the last analyze > 50 + 10 % of the table (the planner's estimates).
// PGlite's statistics live in its process: a start finds them empty, blind to what the last run left.
// So the first run of a process also takes every table of 1 MiB or more once (a plain VACUUM reads only
// the pages changed since the last one: the visibility map says which). A purge pass that purged rows
// vacuums the tables it changed at once (vacuumTables), whatever the counts say.
// On PostgreSQL autovacuum does this, and nothing runs here.

type TDue = { name: string; vacuum: boolean };

const DUE = `
  select format('%I.%I', s.schemaname, s.relname) as name,
         (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
          or age(c.relfrozenxid) > 150000000 or ($2 and c.relpages >= 128)) as vacuum
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
   where s.schemaname = $1 and c.relkind = 'r'
     and (s.n_dead_tup > 50 + 0.2 * greatest(c.reltuples, 0)
          or s.n_ins_since_vacuum > 1000 + 0.2 * greatest(c.reltuples, 0)
          or age(c.relfrozenxid) > 150000000
          or s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
          or ($2 and c.relpages >= 128))
   order by s.n_dead_tup desc`;

/** Vacuums and analyzes the tables of `schema` that are due (`firstRun`: and the large ones), on the embedded store; the names of those it did. */
export async function vacuumDue(schema: 'service' | 'console', firstRun: boolean): Promise<string[]> {
  if ((await dbKind()) !== 'pglite') return [];
  // The counts of the statements just run are sent to the statistics at the next idle moment; this makes it now.
  await driverRows('select pg_stat_force_next_flush()', []);
  const due = await driverRows<TDue>(DUE, [schema, firstRun]);
  for (const t of due) await driverRows(t.vacuum ? `vacuum (analyze) ${t.name}` : `analyze ${t.name}`, []);
  return due.map((t) => t.name);
}

// The partitions (or the table itself, when it has none) of the tables named that changed since their last vacuum or
// analyze, most dead rows first.
const CHANGED_LEAVES = `
  select format('%I.%I', n.nspname, c.relname) as name
    from unnest($1::text[]) as t(name)
    cross join lateral pg_partition_tree(t.name::regclass) p
    join pg_class c on c.oid = p.relid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_stat_user_tables s on s.relid = c.oid
   where p.isleaf and (s.n_dead_tup > 0 or s.n_mod_since_analyze > 0)
   order by s.n_dead_tup desc`;

/**
 * VACUUM (ANALYZE) of `tables` (names as written in SQL, the caller's own), on the embedded store: after a purge pass.
 * One partition per statement, and only those the pass (or ingest) changed: the embedded store answers one statement at
 * a time, and one VACUUM of a partitioned table takes every partition in turn — at a year's size seconds during which
 * no receipt is stored (the year bench's ingest p99 through the pass read 8.1× idle, 14.4 s). Between two partitions
 * ingest gets its turn, and the untouched ones cost nothing. The partitioned parents keep no statistics of their own,
 * as on PostgreSQL, whose autovacuum never analyzes them.
 */
export async function vacuumTables(tables: string[]): Promise<void> {
  if ((await dbKind()) !== 'pglite') return;
  // The pass's own counts (its dead rows) are sent to the statistics at an idle moment at most once a second: one sent
  // after the vacuum would add them back to a table it just cleaned. Sent first, the vacuum's count is the last word.
  await driverRows('select pg_stat_force_next_flush()', []);
  const changed = await driverRows<{ name: string }>(CHANGED_LEAVES, [tables]);
  for (const t of changed) await driverRows(`vacuum (analyze) ${t.name}`, []);
}
