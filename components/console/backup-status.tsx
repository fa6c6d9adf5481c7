import type { TBackupStatus } from '@/lib/db/backup/schedule';
import { Callout } from './callout';
import { Timestamp } from './timestamp';

// The health page's line about the embedded store's scheduled backups (BACKUP_DIR): when the last
// one was taken, and a failure in red until a backup works again. Nothing on PostgreSQL.

export function BackupStatus({ status, embedded }: { status: TBackupStatus; embedded: boolean }) {
  if (!embedded) return null;
  if (!status.dir)
    return (
      <p className="text-xs text-slate-500" data-testid="backup-status">
        Backups: none scheduled. Set <span className="font-mono">BACKUP_DIR</span> (and <span className="font-mono">BACKUP_EVERY</span>) to take them, or run{' '}
        <span className="font-mono">npm run console -- backup --out FILE</span>.
      </p>
    );
  const last = status.lastAt ? (
    <>
      last taken <Timestamp value={status.lastAt} /> UTC (<span className="break-all font-mono">{status.lastFile}</span>)
    </>
  ) : (
    'none taken yet'
  );
  if (status.failure)
    return (
      <div data-testid="backup-status" id="backup-status">
        <Callout tone="error" title={`The scheduled backup failed ${status.failure.failures === 1 ? 'once' : `${status.failure.failures} times in a row`}`}>
          <p>
            At <Timestamp value={status.failure.at} /> UTC: {status.failure.reason}. It is tried again by itself; the {last}.
          </p>
        </Callout>
      </div>
    );
  return (
    <p className="text-xs text-slate-500" data-testid="backup-status">
      Backups every {status.every} into <span className="break-all font-mono">{status.dir}</span>, the newest {status.keep} kept: {last}.
    </p>
  );
}
