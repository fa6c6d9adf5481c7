import { Gauge } from 'prom-client';
import { getDb } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { metrics } from '@/lib/metrics/registry';
import { processSingleton } from '@/lib/process-singleton';

// The delivery queue as /metrics shows it: read from the database on each scrape (one statement over
// service.delivery_queue, the deliveries not settled: migration 0041, shared by both gauges), so it is
// the queue of the whole deployment, whichever process is scraped.

type TDepth = { pending: number; due: number; sending: number; oldest: number | string | null };

let cached: { at: number; value: Promise<TDepth> } | null = null;

function depth(): Promise<TDepth> {
  if (cached && Date.now() - cached.at < 1000) return cached.value;
  const value = getDb().then(async (db) => {
    const [row] = await queryRows<TDepth>(
      db,
      sql`select count(*) filter (where status = 'pending')::int as pending,
                 count(*) filter (where status = 'pending' and next_attempt_at <= now())::int as due,
                 count(*) filter (where status = 'sending')::int as sending,
                 extract(epoch from now() - min(created_at)) as oldest
            from service.delivery_queue`,
    );
    return row;
  });
  cached = { at: Date.now(), value };
  value.catch(() => (cached = null));
  return value;
}

/** Registers the queue gauges on this process's registry (once). */
export function registerQueueGauges(): void {
  processSingleton('metrics-queue-gauges', createQueueGauges);
}

function createQueueGauges(): true {
  const { registry } = metrics();
  new Gauge({
    name: 'gc_delivery_queue_depth',
    help: 'Deliveries not finished, across the deployment: pending (waiting for their time), due (pending and due now), sending (claimed by a worker).',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const d = await depth();
      this.set({ state: 'pending' }, d.pending);
      this.set({ state: 'due' }, d.due);
      this.set({ state: 'sending' }, d.sending);
    },
  });
  new Gauge({
    name: 'gc_delivery_queue_oldest_age_seconds',
    help: 'Age of the oldest delivery not finished (0 when the queue is empty).',
    registers: [registry],
    async collect() {
      const d = await depth();
      this.set(d.oldest === null ? 0 : Math.round(Number(d.oldest)));
    },
  });
  return true;
}
