import { Gauge } from 'prom-client';
import { driverRows } from '@/lib/db/query';
import { metrics } from '@/lib/metrics/registry';
import { processSingleton } from '@/lib/process-singleton';
import { ttlCache } from '@/lib/ttl-cache';

// The store's upkeep as /metrics shows it, read from pg_stat_user_tables at each scrape (one statement,
// shared by the three gauges for a second): each table's dead rows and when it was last vacuumed and
// analyzed, by this app (the embedded store: lib/db/upkeep/vacuum-due.ts) or by autovacuum (PostgreSQL).
// On the embedded store the statistics live in the process: they start again at each start.

type TTable = { name: string; dead: number; vacuumed: number | null; analyzed: number | null };

const cache = ttlCache<'all', TTable[]>('metrics-table-stats', { ttlMs: 1000, maxEntries: 1 });
const tables = () =>
  cache.get('all', () =>
    driverRows<TTable>(
      `select schemaname || '.' || relname as name, n_dead_tup::float8 as dead,
              extract(epoch from greatest(last_vacuum, last_autovacuum))::float8 as vacuumed,
              extract(epoch from greatest(last_analyze, last_autoanalyze))::float8 as analyzed
         from pg_stat_user_tables where schemaname in ('service', 'console')`,
      [],
    ),
  );

/** Registers the table gauges on this process's registry (once). */
export function registerTableGauges(): void {
  processSingleton('metrics-table-gauges', createTableGauges);
}

function createTableGauges(): true {
  const { registry } = metrics();
  const gauge = (name: string, help: string, pick: (t: TTable) => number | null) =>
    new Gauge({
      name,
      help,
      labelNames: ['table'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const t of await tables()) {
          const v = pick(t);
          if (v !== null) this.set({ table: t.name }, Number(v));
        }
      },
    });
  gauge('gc_store_table_dead_rows', "Dead rows in each of the store's tables (space a vacuum gives back).", (t) => t.dead);
  gauge('gc_store_table_last_vacuum_timestamp_seconds', 'When each table was last vacuumed (absent: not since the store opened).', (t) => t.vacuumed);
  gauge('gc_store_table_last_analyze_timestamp_seconds', 'When each table was last analyzed (absent: not since the store opened).', (t) => t.analyzed);
  return true;
}
