import type { TLease } from '@/lib/db/take-lease';

// service.messages is partitioned by created_at (migration 0040), as its deliveries are (0039): a partition holds the
// messages made in its range, and their deliveries are in the deliveries partitions of the same range, which reference it
// by (message_id, created_at). Its partitions are made ahead by the service's upkeep (purge-service.ts); its rows past
// MESSAGE_RETENTION still leave row by row, in the messages step.

export const MESSAGES_TABLE = 'service.messages';
export const MESSAGES_LEASE: TLease = { table: 'service.leases', name: 'partitions-service.messages' };
