import { queryRows, sql, type DbOrTx } from '@/lib/db/client';

// A webhook whose newest attempt succeeded after a failure in the window: when that failure was,
// and how it has done since — the attempts after it (all succeeded, since it is the newest failure)
// and when the first of them was made. Read from attempts_webhook_time_idx within one bucket of the
// window (the newest that had a failure, known from the stats' buckets), then from the failure on,
// stopped at RECOVERY_COUNT_CAP rows: bounded whatever the volume.

/** Attempts since the newest failure are counted up to this; enough to tell a recovery from a lucky one. */
export const RECOVERY_COUNT_CAP = 100;

export type TRecovery = { lastFailureMs: number; sinceMs: number | null; attempts: number };

type TRaw = { last_ms: number | string | null; n: number; first_ms: number | string | null };

const ms = (v: number | string | null): number | null => (v === null ? null : Math.round(Number(v)));

/** null when no failed attempt is in [start, end) (it was in the buckets: an attempt being rolled up meanwhile). */
export async function queryRecovery(db: DbOrTx, webhookId: string, { start, end }: { start: Date; end: Date }): Promise<TRecovery | null> {
  const [row] = await queryRows<TRaw>(
    db,
    sql`with lf as (
          select max(created_at) as at from service.attempts
           where webhook_id = ${webhookId} and created_at >= ${start.toISOString()}::timestamptz and created_at < ${end.toISOString()}::timestamptz
             and status <> 'success')
        select extract(epoch from lf.at) * 1000 as last_ms,
               (select count(*)::int from (select 1 from service.attempts a
                  where a.webhook_id = ${webhookId} and a.created_at > lf.at order by a.created_at limit ${RECOVERY_COUNT_CAP}::int) s) as n,
               (select extract(epoch from min(a.created_at)) * 1000 from service.attempts a where a.webhook_id = ${webhookId} and a.created_at > lf.at) as first_ms
          from lf`,
  );
  const last = ms(row?.last_ms ?? null);
  if (last === null) return null;
  return { lastFailureMs: last, sinceMs: ms(row.first_ms), attempts: row.n };
}
