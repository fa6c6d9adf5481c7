// SQL of the year section (year.ts) over whatever tables are partitioned when it runs, read from the catalog, so a table
// partitioned after this was written is seeded into, dropped from and measured the same way.

export type TPartitionInterval = 'day' | 'week' | 'month';

/** The app's partition interval (lib/db/partitions/interval.ts): PARTITION_INTERVAL, else a day on PostgreSQL and a week embedded. */
export const intervalOf = (env: Record<string, string>, postgres: boolean): TPartitionInterval =>
  (env.PARTITION_INTERVAL as TPartitionInterval) || (postgres ? 'day' : 'week');

/** The start of UTC day `daysAgo` before today's (0: today's midnight), as SQL. */
export const dayStart = (daysAgo: number) => `(date_trunc('day', now() at time zone 'UTC') at time zone 'UTC' - interval '${daysAgo} days')`;

/**
 * Partitions of `interval` for the past, back to `since` (SQL), for every table of the app's schemas partitioned by a time, made
 * as the app makes them (lib/db/partitions/manage-partitions.ts: a table of the parent's shape, then attached), at its
 * UTC boundaries (date_trunc: days, ISO weeks from Monday, months). A fresh store's first partition runs from MINVALUE
 * to the moment its migration ran (0037's attempts_p0, the upgrade's old table); empty there, it goes first, so the
 * seeded days land each in its own partition as they would have had the store been partitioned then. The last one ends
 * where the migration's first partition begins (its cutover); one that would share that partition's name gets an `a`.
 * A table partitioned by id (console.receipts, 0038: a slot of ids per interval of arrival) gets its slots from
 * receiptSlotsSql.
 */
export function pastPartitionsSql(interval: TPartitionInterval, since: string): string {
  return `
do $$
declare
  t record; p record; lo timestamptz; b timestamptz; nxt timestamptz; nm text; nonempty boolean;
begin
  for t in select n.nspname as s, c.relname as r, c.oid from pg_partitioned_table pt join pg_class c on c.oid = pt.partrelid
             join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = pt.partrelid and a.attnum = pt.partattrs[0]
            where n.nspname in ('service', 'console') and a.atttypid = 'timestamptz'::regtype order by c.relname loop
    for p in select c.relname as r from pg_inherits i join pg_class c on c.oid = i.inhrelid
              where i.inhparent = t.oid and pg_get_expr(c.relpartbound, c.oid) like '%FROM (MINVALUE)%' loop
      execute format('select exists (select 1 from %I.%I)', t.s, p.r) into nonempty;
      if nonempty then raise exception 'the first partition %.% holds rows: the year section needs a fresh store', t.s, p.r; end if;
      execute format('alter table %I.%I detach partition %I.%I', t.s, t.r, t.s, p.r);
      execute format('drop table %I.%I', t.s, p.r);
    end loop;
    select min(substring(pg_get_expr(c.relpartbound, c.oid) from 'FROM \\(''([^'']*)''\\)')::timestamptz) into lo
      from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = t.oid;
    b := date_trunc('${interval}', (${since}) at time zone 'UTC') at time zone 'UTC';
    while b < lo loop
      nxt := least((date_trunc('${interval}', b at time zone 'UTC') + interval '1 ${interval}') at time zone 'UTC', lo);
      nm := t.r || '_p' || to_char(b at time zone 'UTC', 'YYYYMMDD');
      if to_regclass(format('%I.%I', t.s, nm)) is not null then nm := nm || 'a'; end if;
      execute format('create table %I.%I (like %I.%I including defaults including constraints including storage)', t.s, nm, t.s, t.r);
      execute format('alter table %I.%I attach partition %I.%I for values from (%L) to (%L)', t.s, t.r, t.s, nm, b, nxt);
      b := nxt;
    end loop;
  end loop;
end $$;`;
}

/**
 * console.receipts' slots (lib/db/partitions/id-slots.ts: a slot of 10^10 ids per interval of arrival) for the past, as
 * the app's upkeep would have made them had it run then: a fresh store's empty slots go (0038's receipts_p0 to MINVALUE,
 * the one open since the migration, the one made ahead), then one slot per interval from `since`'s to today's, each
 * opened at its interval's start and closed at the next's, then the open one (today's, opened at its start, the sequence
 * in it) and one ahead. seedScaleSql gives a receipt the id of the slot its arrival time falls in, so the seeded days'
 * receipts are dropped, pruned and vacuumed a slot at a time, as real arrivals would be. Under the tables' locks: the
 * app's upkeep, running meanwhile, waits.
 */
export function receiptSlotsSql(interval: TPartitionInterval, since: string): string {
  return `
do $$
declare
  slot constant bigint := 10000000000;
  s record; b timestamptz; k bigint := 1; today timestamptz := date_trunc('${interval}', now() at time zone 'UTC') at time zone 'UTC';
begin
  lock table console.receipts, console.receipt_partitions in access exclusive mode;
  if exists (select 1 from console.receipts) then raise exception 'console.receipts holds rows: the year section needs a fresh store'; end if;
  for s in select name from console.receipt_partitions loop
    execute format('alter table console.receipts detach partition console.%I', s.name);
    execute format('drop table console.%I', s.name);
  end loop;
  delete from console.receipt_partitions;
  b := date_trunc('${interval}', (${since}) at time zone 'UTC') at time zone 'UTC';
  loop
    execute format('create table console.%I (like console.receipts including defaults including constraints including storage)', 'receipts_p' || k);
    execute format('alter table console.receipts attach partition console.%I for values from (%s) to (%s)', 'receipts_p' || k, k * slot, (k + 1) * slot);
    insert into console.receipt_partitions (name, first_id, end_id, opened_at, closed_at)
      values ('receipts_p' || k, k * slot, (k + 1) * slot, case when b <= today then b end,
              case when b < today then (date_trunc('${interval}', b at time zone 'UTC') + interval '1 ${interval}') at time zone 'UTC' end);
    if b = today then perform setval('console.receipts_id_seq', k * slot, false); end if;
    exit when b > today;
    b := (date_trunc('${interval}', b at time zone 'UTC') + interval '1 ${interval}') at time zone 'UTC';
    k := k + 1;
  end loop;
end $$;`;
}

/**
 * Every partition of the app's schemas with its range's end (epoch ms; null for MAXVALUE, DEFAULT, or a table partitioned
 * by something other than a time) and its bytes.
 */
export const PARTITIONS_SQL = `
  select format('%I.%I', n.nspname, c.relname) as name, format('%I.%I', pn.nspname, pc.relname) as parent,
         case when a.atttypid = 'timestamptz'::regtype then
           extract(epoch from substring(pg_get_expr(c.relpartbound, c.oid) from 'TO \\(''([^'']*)''\\)')::timestamptz) * 1000 end as "toMs",
         pg_total_relation_size(c.oid)::float8 as bytes
    from pg_inherits i join pg_class c on c.oid = i.inhrelid join pg_namespace n on n.oid = c.relnamespace
    join pg_class pc on pc.oid = i.inhparent join pg_namespace pn on pn.oid = pc.relnamespace
    join pg_partitioned_table pt on pt.partrelid = pc.oid join pg_attribute a on a.attrelid = pc.oid and a.attnum = pt.partattrs[0]
   where pn.nspname in ('service', 'console')
   order by 1`;

/**
 * The store's size: the database's, and the four growing tables' each with its partitions and indexes (a table not
 * partitioned is no tree's).
 */
export const SIZE_SQL = `
  select pg_database_size(current_database())::float8 as database,
         ${['service.messages', 'service.deliveries', 'service.attempts', 'console.receipts']
           .map(
             (t) =>
               `coalesce((select sum(pg_total_relation_size(relid)) from pg_partition_tree('${t}') where isleaf), pg_total_relation_size('${t}'))::float8 as "${t.split('.')[1]}"`,
           )
           .join(',\n         ')}`;

/**
 * The last retention pass of each half, and when each of its partition steps (attempt_partitions, and any `*_partitions`
 * step a later table brings) last dropped, in epoch ms.
 */
export const PASSES_SQL = `
  select 'service' as half, what, extract(epoch from pass_started_at) * 1000 as "startedMs", extract(epoch from pass_ended_at) * 1000 as "endedMs",
         extract(epoch from last_purge_at) * 1000 as "lastMs", purged::float8 as purged
    from service.retention_progress where what = 'pass' or what like '%partitions'
  union all
  select 'console', what, extract(epoch from pass_started_at) * 1000, extract(epoch from pass_ended_at) * 1000, extract(epoch from last_purge_at) * 1000, purged::float8
    from console.retention_progress where what = 'pass' or what like '%partitions'`;
