import { driverRows } from '@/lib/db/query';
import { formatDuration } from '@/lib/duration';
import { heldSql } from './purge-console';
import { receiptInterval, receiptRowsRetentionMs } from './drop-receipts';
import { retentionSettings, type TSetting } from './retention-settings';

// The console's purge as its admin page and GET /api/retention show it: the settings, what each
// kind purged so far, the last pass, and what is due now (counted up to BACKLOG_CAP, so the read
// stays cheap on a large backlog).

const BACKLOG_CAP = 100_000;

export type TRetentionKind = { what: string; retention: string; purged: number; lastPurgeAt: string | null; due: number; dueCapped: boolean };
export type TRetentionStatus = {
  /** The console's settings in effect, by name (`30d`). */
  settings: Record<string, string>;
  /** Every retention setting, where it comes from (default, env, admin), and whether /retention may change it. */
  effective: TSetting[];
  kinds: TRetentionKind[];
  pass: { startedAt: string | null; endedAt: string | null };
  /** Receipts past their body retention that keep their body: their delivery is unresolved (RETENTION_HOLD_MAX at most). */
  held: number;
};

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

export async function retentionStatus(): Promise<TRetentionStatus> {
  const effective = await retentionSettings();
  const ms = (key: string) => effective.find((s) => s.key === key)!.ms;
  const [bodyMs, rowMs, holdMs] = [ms('RECEIPT_BODY_RETENTION'), ms('RECEIPT_RETENTION'), ms('RETENTION_HOLD_MAX')];
  const progress = await driverRows<{
    what: string;
    purged: string | number;
    last_purge_at: Date | null;
    pass_started_at: Date | null;
    pass_ended_at: Date | null;
  }>('select what, purged, last_purge_at, pass_started_at, pass_ended_at from console.retention_progress', []);
  const by = new Map(progress.map((p) => [p.what, p]));
  const [due] = await driverRows<{ bodies: number; rows: number; held: number }>(
    `select (select count(*)::int from (select 1 from console.receipts r where r.body_purged_at is null
                and r.received_at < now() - $1::bigint * interval '1 millisecond' and not ${heldSql('$4')} limit $3) b) as bodies,
            (select count(*)::int from (select 1 from console.receipts r where r.body_purged_at is null
                and r.received_at < now() - $1::bigint * interval '1 millisecond' and ${heldSql('$4')} limit $3) h) as held,
            (select count(*)::int from (select 1 from console.receipts
                where received_at < now() - $2::bigint * interval '1 millisecond' limit $3) r) as rows`,
    [bodyMs, receiptRowsRetentionMs(rowMs, await receiptInterval()), BACKLOG_CAP, holdMs],
  );
  const kind = (what: string, retentionMs: number, n: number): TRetentionKind => ({
    what,
    retention: formatDuration(retentionMs),
    // Receipts dropped with their partition count as receipts (drop-receipts.ts).
    purged: Number(by.get(what)?.purged ?? 0) + (what === 'receipts' ? Number(by.get('receipt_partitions')?.purged ?? 0) : 0),
    lastPurgeAt: iso(by.get(what)?.last_purge_at),
    due: n,
    dueCapped: n >= BACKLOG_CAP,
  });
  const pass = by.get('pass');
  return {
    settings: {
      RECEIPT_BODY_RETENTION: formatDuration(bodyMs),
      RECEIPT_RETENTION: formatDuration(rowMs),
      RETENTION_HOLD_MAX: formatDuration(holdMs),
    },
    effective,
    kinds: [kind('receipt_bodies', bodyMs, due.bodies), kind('receipts', rowMs, due.rows)],
    pass: { startedAt: iso(pass?.pass_started_at), endedAt: iso(pass?.pass_ended_at) },
    held: due.held,
  };
}
