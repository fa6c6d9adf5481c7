import { driverRows } from '@/lib/db/query';
import { progressCte } from '@/lib/db/purge-progress';
import type { TPurgeStep } from '@/lib/db/purge-loop';
import { IDEMPOTENCY_WINDOW_MS } from '@/lib/service/grants/constants';

// service.idempotency_keys holds a grant request's key and its answer for IDEMPOTENCY_WINDOW_MS (24 h, as Stripe's):
// a key reused after that makes a new grant (create-grant.ts). Before this step an expired key left only when
// its own key came again, so the table grew with every keyed grant for ever. Each pass deletes the expired keys a
// batch at a time (their created_at index, migration 0042), so the table holds about a day of keys.
//
// Not partitioned, unlike the messages it grows with: a key must stay unique per Connect across its window, and a
// partitioned table's unique index must hold the partition key, which would let one key be claimed once per
// partition. The grants themselves (service.grants) are the donations' ledger: no retention takes them, and they
// are read by a random uuid and a unique tracking id, which a time partitioning would make every read scan.

const EXPIRE = `
  with batch as (
    select connect_id, key from service.idempotency_keys
     where created_at < now() - $1::bigint * interval '1 millisecond'
     order by created_at limit $2 for update skip locked),
  done as (
    delete from service.idempotency_keys k using batch where k.connect_id = batch.connect_id and k.key = batch.key returning 1),
  ${progressCte('service', 'idempotency_keys')}`;

/** The purge step that deletes up to `limit` idempotency keys past their window; returns how many went. */
export const idempotencyKeysStep = (windowMs = IDEMPOTENCY_WINDOW_MS): TPurgeStep => ({
  what: 'idempotency_keys',
  run: async (limit) => (await driverRows<{ n: number }>(EXPIRE, [windowMs, limit]))[0]?.n ?? 0,
});
