import { sql, type SQL } from 'drizzle-orm';
import { receipts } from '@/lib/db/schema/console';

/**
 * Whether a receipt is a duplicate: an earlier receipt (lower id) of the same message reached the
 * same receiver at the same address and was acknowledged: a 2xx to a request whose signature
 * verified (or that it had no secret to check). A retry after the receiver answered an error is
 * the sender doing its job, and a copy that failed verification does not make the next one a
 * duplicate. Arrivals at another address may be another webhook's (join-delivery.ts decides those).
 *
 * Derived when read (an index probe on (message_id, receiver_id) per row shown) rather than stored
 * at ingest, so the receiver's hot path writes the row and nothing else, and two copies that
 * arrive in concurrent transactions still come out as one original and one duplicate.
 */
// Column names spelled out: inside raw SQL drizzle leaves single-table columns unqualified, which
// would make the inner table's columns shadow the outer row's. `receipts` is the outer row (the
// lists select from console.receipts without an alias).
// The earlier copy is looked for from `firstId` on: the first receipt id of the message's time (receiptIdSinceMessages),
// so the look plans only the partitions from then rather than every one.
export const isDuplicateFrom = (firstId: SQL) =>
  sql<boolean>`exists (select 1 from ${receipts} as earlier where earlier.message_id = receipts.message_id and earlier.receiver_id = receipts.receiver_id and earlier.host = receipts.host and earlier.id < receipts.id and earlier.id >= ${firstId} and earlier.response_status between 200 and 299 and earlier.verdict in ('valid', 'no secret configured'))`;
