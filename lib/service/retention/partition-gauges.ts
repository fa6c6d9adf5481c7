import { Gauge } from 'prom-client';
import { metrics } from '@/lib/metrics/registry';
import { processSingleton } from '@/lib/process-singleton';
import { ttlCache } from '@/lib/ttl-cache';
import { attemptPartitionStatus, deliveryPartitionStatus, messagePartitionStatus, type TPartitionStatus } from './partition-status';

// The service's partitioned tables as /metrics shows them, read from the catalog on each scrape (partition-status.ts,
// shared by the gauges for a second): per table its partitions, their total size, the oldest's start and the newest's
// end, the next drop (when, and which partition) and how many past their time are kept. The whole deployment's, as the
// retention page shows them, whichever process is scraped.

const cache = ttlCache<'all', TPartitionStatus[]>('metrics-partition-statuses', { ttlMs: 1000, maxEntries: 1 });
// The tables' statuses: the service's attempts and deliveries (when this process serves the service), and what else registered one
// (the console's receipts: lib/console/retention/receipt-partition-status.ts).
const sources = processSingleton('metrics-partition-sources', () => new Map<string, () => Promise<TPartitionStatus | null>>());
const statuses = () =>
  cache.get('all', async () => {
    const all = await Promise.all([...sources.values()].map((read) => read()));
    return all.filter((s): s is TPartitionStatus => s !== null);
  });

const seconds = (iso: string | null) => (iso === null ? null : Date.parse(iso) / 1000);

/** Registers the partition gauges on this process's registry (once), with the service's attempts and deliveries among their tables. */
export function registerPartitionGauges(): void {
  addPartitionSource('service.attempts', attemptPartitionStatus);
  addPartitionSource('service.deliveries', deliveryPartitionStatus);
  addPartitionSource('service.messages', messagePartitionStatus);
}

/** Adds a table's status to the partition gauges (registered once). */
export function addPartitionSource(table: string, read: () => Promise<TPartitionStatus | null>): void {
  sources.set(table, read);
  processSingleton('metrics-partition-gauges', createPartitionGauges);
}

function createPartitionGauges(): true {
  const { registry } = metrics();
  const gauge = (name: string, help: string, pick: (s: TPartitionStatus) => { labels?: Record<string, string>; value: number | null }) =>
    new Gauge({
      name,
      help,
      labelNames: ['table', 'partition'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await statuses()) {
          const { labels = {}, value } = pick(s);
          if (value !== null) this.set({ table: s.table, ...labels }, value);
        }
      },
    });
  gauge('gc_store_partitions', "Partitions of each of the store's tables partitioned by time, those made ahead included.", (s) => ({ value: s.count }));
  gauge('gc_store_partitions_bytes', 'Their total size with indexes.', (s) => ({ value: s.bytes }));
  gauge('gc_store_partition_oldest_start_timestamp_seconds', "The oldest partition's start (absent: from the beginning, an upgraded store's first).", (s) => ({
    value: seconds(s.oldestFrom),
  }));
  gauge('gc_store_partition_newest_end_timestamp_seconds', "The newest partition's end (made a week ahead).", (s) => ({ value: seconds(s.newestTo) }));
  gauge('gc_store_partition_next_drop_timestamp_seconds', "When the next partition's range is past the retention (the purge's next pass drops it).", (s) => ({
    labels: s.nextDrop ? { partition: s.nextDrop.partition } : undefined,
    value: s.nextDrop ? seconds(s.nextDrop.at) : null,
  }));
  gauge('gc_store_partitions_held', 'Partitions past the retention kept because they hold what must stay (the retention page says why).', (s) => ({
    value: s.held.length,
  }));
  return true;
}
