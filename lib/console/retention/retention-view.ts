import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';
import { receiptPartitionStatus } from './receipt-partition-status';
import { retentionStatus } from './retention-status';
import { serviceRetention } from './service-retention';

// The retention page's view: the console's purge (settings, progress, what is held), its receipt
// partitions (receipt-partition-status.ts), and the service's retention for the environment's account (EXT /v1/retention; unsupported or an API
// failure as an inline error). Every role reads it; an admin changes it.

export const loadRetentionView = staffView(async ({ api }) => {
  const [status, service, receiptPartitions] = await Promise.all([retentionStatus(), loadOrError(() => serviceRetention(api)), receiptPartitionStatus()]);
  return { status, service, receiptPartitions };
});
