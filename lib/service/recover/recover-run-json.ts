import { sql } from 'drizzle-orm';
import { type DbOrTx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import type * as schema from '@/lib/db/schema/service';

export type TRecoverRunRow = typeof schema.recoverRuns.$inferSelect;

/** recover: failed deliveries re-queued; replay-missing: deliveries made for messages the webhook never got. */
export type TRunKind = 'recover' | 'replay-missing';

export type TRecoverRunJson = {
  id: string;
  kind: TRunKind;
  webhookId: string;
  since: string;
  /** the window's end: the `until` asked for, or the time the run started */
  until: string;
  status: 'running' | 'done';
  /** how many failed messages the run re-queued (the 202's `messages`) */
  messages: number;
  /** still to be sent */
  remaining: number;
  /** re-sent and answered 2xx */
  succeeded: number;
  /** re-sent and failed again */
  failed: number;
  createdAt: string;
  /** when the last message was re-sent; null while running */
  finishedAt: string | null;
  /** the API client whose token started the run; null before it was recorded (migration 0032) */
  clientId: string | null;
};

const iso = (v: Date | string) => new Date(v).toISOString();

/** The run as the API shows it, its progress counted from the deliveries it re-queued. */
export async function recoverRunJson(db: DbOrTx, row: TRecoverRunRow): Promise<TRecoverRunJson> {
  const [p] = await queryRows<{ remaining: number; succeeded: number; failed: number; last: Date | string | null }>(
    db,
    sql`select count(*) filter (where status in ('pending', 'sending'))::int as remaining,
               count(*) filter (where status = 'success')::int as succeeded,
               count(*) filter (where status = 'failed')::int as failed,
               max(updated_at) as last
        from service.deliveries where recover_run_id = ${row.id}`,
  );
  const remaining = Number(p?.remaining ?? 0);
  const done = remaining === 0;
  return {
    id: row.id,
    kind: row.kind as TRunKind,
    webhookId: row.webhookId,
    since: iso(row.since),
    until: iso(row.until ?? row.createdAt),
    status: done ? 'done' : 'running',
    messages: row.messages,
    remaining,
    succeeded: Number(p?.succeeded ?? 0),
    failed: Number(p?.failed ?? 0),
    createdAt: iso(row.createdAt),
    finishedAt: done ? iso(p?.last ?? row.createdAt) : null,
    clientId: row.clientId ?? null,
  };
}
