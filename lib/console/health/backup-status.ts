import { scheduledBackupStatus, type TBackupStatus } from '@/lib/db/backup/schedule';
import { dbKind } from '@/lib/db/client';

/** What the health page says of the embedded store's scheduled backups; `embedded` false on PostgreSQL (nothing shown). */
export async function loadBackupStatus(): Promise<{ status: TBackupStatus; embedded: boolean }> {
  return { status: scheduledBackupStatus(), embedded: (await dbKind()) === 'pglite' };
}
