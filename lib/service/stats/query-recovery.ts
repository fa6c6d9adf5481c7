import { type DbOrTx } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';

// Webhooks whose newest attempt succeeded after a failure in the window: when that failure was,
// and how each has done since — the attempts after it (all succeeded, since it is the newest
// failure) and when the first of them was made. Read from attempts_webhook_time_idx within one
// bucket of the window (the newest that had a failure, known from the stats' buckets), then from
// the failure on, stopped at RECOVERY_COUNT_CAP rows: bounded whatever the volume. One statement
// for all of them (a LATERAL per webhook), as for their state (query-delivery-state.ts).

/** Attempts since the newest failure are counted up to this; enough to tell a recovery from a lucky one. */
export const RECOVERY_COUNT_CAP = 100;

export type TRecovery = { lastFailureMs: number; sinceMs: number | null; attempts: number };
export type TRecoveryAsk = { webhookId: string; start: Date; end: Date };

type TRaw = { webhook_id: string; last_ms: number | string | null; n: number; first_ms: number | string | null };

const ms = (v: number | string | null): number | null => (v === null ? null : Math.round(Number(v)));

/**
 * Each asked webhook's recovery, by id; one is missing when no failed attempt is in its [start, end)
 * (it was in the buckets: an attempt being rolled up meanwhile).
 */
export async function queryRecoveries(db: DbOrTx, asks: TRecoveryAsk[]): Promise<Map<string, TRecovery>> {
  if (asks.length === 0) return new Map();
  const rows = await queryRows<TRaw>(
    db,
    sql`select r.webhook_id, extract(epoch from lf.at) * 1000 as last_ms, since.n, extract(epoch from since.first) * 1000 as first_ms
          from unnest(${sqlArray(
            asks.map((a) => a.webhookId),
            'text',
          )}, ${sqlArray(
            asks.map((a) => a.start.toISOString()),
            'timestamptz',
          )}, ${sqlArray(
            asks.map((a) => a.end.toISOString()),
            'timestamptz',
          )})
               as r(webhook_id, start_at, end_at)
          cross join lateral (
            select max(created_at) as at from service.attempts
             where webhook_id = r.webhook_id and created_at >= r.start_at and created_at < r.end_at and status <> 'success') lf
          cross join lateral (
            select count(*)::int as n, min(created_at) as first from (
              select a.created_at from service.attempts a
               where a.webhook_id = r.webhook_id and a.created_at > lf.at order by a.created_at limit ${RECOVERY_COUNT_CAP}::int) s) since
         where lf.at is not null`,
  );
  const out = new Map<string, TRecovery>();
  for (const row of rows) {
    const last = ms(row.last_ms);
    if (last !== null) out.set(row.webhook_id, { lastFailureMs: last, sinceMs: ms(row.first_ms), attempts: row.n });
  }
  return out;
}
