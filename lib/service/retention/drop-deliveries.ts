import type { TLease } from '@/lib/db/take-lease';

// service.deliveries is partitioned by created_at (migration 0039), its message's creation time.

export const DELIVERIES_TABLE = 'service.deliveries';
export const DELIVERIES_LEASE: TLease = { table: 'service.leases', name: 'partitions-service.deliveries' };
