import type { TAccountRetention } from '@/lib/console/connect-api/types';
import { listIdSpans } from '@/lib/db/partitions/id-slots';
import { nextBoundary } from '@/lib/db/partitions/interval';
import { driverRows } from '@/lib/db/query';
import { receiptPartitioned } from '../receivers/receipt-partitions';
import { consoleRetention } from './retention-settings';

// console.receipts' partitions as the retention page and /metrics show them, in the shape of the service's tables'
// (partition-status.ts): how many, the oldest's start (null: receipts_p0, from the beginning) and when the open one
// closes (the next interval's start), their total size, and the next drop: the oldest closed partition, once its close
// is past RECEIPT_RETENTION. None is kept past its time (drop-receipts.ts: rows have no hold).

// The shape of the service's partitions in its API (GET /v1/retention's `partitions`, the console's only way to its
// tables), with nothing ever held.
export type TReceiptPartitionStatus = Omit<NonNullable<TAccountRetention['partitions']>[number], 'held'> & { held: never[] };

export async function receiptPartitionStatus(): Promise<TReceiptPartitionStatus> {
  const p = await receiptPartitioned();
  const spans = await listIdSpans(p);
  const sizes = await driverRows<{ name: string; bytes: number }>(
    `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'console.receipts'::regclass`,
    [],
  );
  const rowsMs = (await consoleRetention()).RECEIPT_RETENTION;
  const open = spans.find((s) => s.openedAt && !s.closedAt);
  const next = spans.find((s) => s.closedAt);
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
  return {
    table: p.table,
    count: spans.length,
    oldestFrom: iso(spans[0]?.openedAt),
    newestTo: iso(open?.openedAt ? nextBoundary(open.openedAt, p.interval) : null),
    bytes: sizes.reduce((n, s) => n + Number(s.bytes), 0),
    retention: rowsMs,
    nextDrop: next?.closedAt ? { partition: `console.${next.name}`, at: new Date(next.closedAt.getTime() + rowsMs).toISOString() } : null,
    held: [],
  };
}
