import { sql } from 'drizzle-orm';
import { receipts } from '@/lib/db/schema';

/**
 * Whether a receipt is a duplicate: an earlier receipt (lower id) of the same message reached the
 * same receiver and was acknowledged with a 2xx. A retry after the receiver answered an error is
 * the sender doing its job, not a duplicate.
 *
 * Derived when read (an index probe on (message_id, receiver_id) per row shown) rather than stored
 * at ingest, so the receiver's hot path writes the row and nothing else, and two copies that
 * arrive in concurrent transactions still come out as one original and one duplicate.
 */
// Column names spelled out: inside raw SQL drizzle leaves single-table columns unqualified, which
// would make the inner table's columns shadow the outer row's. `receipts` is the outer row (the
// lists select from console.receipts without an alias).
export const isDuplicate = sql<boolean>`exists (select 1 from ${receipts} as earlier where earlier.message_id = receipts.message_id and earlier.receiver_id = receipts.receiver_id and earlier.id < receipts.id and earlier.response_status between 200 and 299)`;
