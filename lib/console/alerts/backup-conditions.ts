import { loadBackupStatus } from '@/lib/console/health/backup-status';
import type { TAlertRuleRow } from './rule-schemas';

type TConditions = Map<string, Record<string, unknown>>;

// The backup rule's condition (kind backup_failed): the embedded store's scheduled backups
// (lib/db/backup/schedule.ts) failing, or the newest older than the rule's hours — or none at all,
// scheduled backups being off (no BACKUP_DIR). Read in this process, which owns the embedded store
// and takes its backups. On PostgreSQL it never holds: the operator's pg_dump backs it up.

export async function backupConditions(rule: TAlertRuleRow, now: Date): Promise<TConditions> {
  const { status, embedded } = await loadBackupStatus();
  const out: TConditions = new Map();
  if (!embedded) return out;
  const lastAt = status.lastAt?.toISOString() ?? null;
  if (!status.dir) {
    out.set('backup:off', { dir: null, lastAt, hours: rule.threshold, reason: 'scheduled backups are off: BACKUP_DIR is not set' });
    return out;
  }
  const subject = `backup:${status.dir}`;
  if (status.failure) {
    out.set(subject, {
      dir: status.dir,
      lastAt,
      lastFile: status.lastFile,
      hours: rule.threshold,
      failedAt: status.failure.at.toISOString(),
      failures: status.failure.failures,
      reason: status.failure.reason,
    });
    return out;
  }
  // No backup yet: counted from when this process started the schedule (its first is taken at once).
  const since = status.lastAt ?? status.startedAt;
  const ageMs = since ? now.getTime() - since.getTime() : 0;
  if (ageMs > rule.threshold * 3_600_000)
    out.set(subject, { dir: status.dir, lastAt, lastFile: status.lastFile, hours: rule.threshold, nextAt: status.nextAt?.toISOString() ?? null });
  return out;
}
