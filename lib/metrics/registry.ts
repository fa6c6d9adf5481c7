import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { processSingleton } from '@/lib/process-singleton';

// The process's Prometheus metrics (prom-client), one per process (processSingleton): the ingest fast path
// (registered at boot), the worker and the /metrics route run in different bundles of one process
// and must count into one registry. Each process (web, `npm run worker`) has its own.

/** How often the event-loop lag is sampled (prom-client's eventLoopMonitoringPrecision). */
export const EVENT_LOOP_SAMPLE_MS = 100;

export type TMetrics = {
  registry: Registry;
  deliveryAttempts: Counter<'outcome' | 'trigger'>;
  deliveryDuration: Histogram<'outcome'>;
  ingestReceipts: Counter<'verdict'>;
  gcPurged: Counter<'what'>;
  gcQuietWait: Counter<'loop'>;
};

function create(): TMetrics {
  const registry = new Registry();
  // The event-loop lag is sampled every 100 ms, not prom-client's 10: its timer woke the process 100
  // times a second, a third of what an idle app spent (~0.2 CPU s a minute). Its min, mean and
  // percentiles are of those intervals since the last scrape (about 0.1 s at rest: the lag is what is above it).
  collectDefaultMetrics({ register: registry, prefix: 'gc_', eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  return {
    registry,
    deliveryAttempts: new Counter({
      name: 'gc_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this process, by outcome (success, http_error, network_error) and trigger (scheduled, manual).',
      labelNames: ['outcome', 'trigger'],
      registers: [registry],
    }),
    deliveryDuration: new Histogram({
      name: 'gc_delivery_duration_seconds',
      help: 'Time from sending a webhook to its answer (or the timeout), by outcome.',
      labelNames: ['outcome'],
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
      registers: [registry],
    }),
    ingestReceipts: new Counter({
      name: 'gc_ingest_receipts_total',
      help: "Requests stored by this process's receivers (/ingest/{slug}), by signature verdict.",
      labelNames: ['verdict'],
      registers: [registry],
    }),
    gcPurged: new Counter({
      name: 'gc_purged_total',
      help: 'What the retention purge of this process removed, by kind (receipt_bodies, receipts, message_payloads, attempt_responses, messages, idempotency_keys; attempt_partitions, delivery_partitions: attempts and deliveries that left with their partition).',
      labelNames: ['what'],
      registers: [registry],
    }),
    gcQuietWait: new Counter({
      name: 'gc_purge_quiet_wait_seconds_total',
      help: "Seconds the retention purge's row batches waited for a quiet PostgreSQL store (other statements running), by loop; at most 10 s between two batches.",
      labelNames: ['loop'],
      registers: [registry],
    }),
  };
}

/** The metrics of this process, made on first use. */
export function metrics(): TMetrics {
  return processSingleton('metrics', create);
}
