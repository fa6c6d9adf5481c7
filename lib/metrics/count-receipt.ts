import { metrics } from './registry';

/** Counts one stored receipt by its signature verdict (an in-memory increment, for the ingest hot path). */
export function countReceipt(verdict: string): void {
  metrics().ingestReceipts.inc({ verdict });
}
