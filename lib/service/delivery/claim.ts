import { queryRows, sql, type DbOrTx } from '@/lib/db/client';

export type TClaim = {
  id: string;
  messageId: string;
  webhookId: string;
  accountId: string;
  scheduledAttemptCount: number;
  /** Set when a recover run re-queued it: this attempt is that run's one manual re-send, not a step of the schedule. */
  recoverRunId: string | null;
  /** This claim's lease token: results are written back only while the delivery still carries it. */
  leaseOwner: string;
};

/** A claimed delivery with what sending it takes; `target` null: the webhook was disabled or deleted meanwhile. */
export type TDeliveryJob = { claim: TClaim; target: { url: string; payload: string; secrets: string[] } | null };

type TClaimRow = {
  id: string;
  message_id: string;
  webhook_id: string;
  account_id: string;
  scheduled_attempt_count: number;
  recover_run_id: string | null;
  url: string | null;
  payload: string | null;
  secrets: string[] | null;
};

/**
 * Takes up to `limit` due deliveries, with what sending them takes (body, URL, the secrets that
 * sign now), in one statement: waiting ones whose time has come, and ones left `sending` by a worker
 * whose lease ran out (it died mid-attempt). SKIP LOCKED lets any number of workers claim side by
 * side without waiting for, or taking, each other's rows. A delivery whose webhook is disabled or
 * deleted comes back without a target, to be abandoned.
 */
export async function claimDeliveries(db: DbOrTx, { owner, limit, leaseMs }: { owner: string; limit: number; leaseMs: number }): Promise<TDeliveryJob[]> {
  const rows = await queryRows<TClaimRow>(
    db,
    sql`with claimed as (
          update service.deliveries
          set status = 'sending', lease_until = now() + ${leaseMs}::int * interval '1 millisecond', lease_owner = ${owner}, updated_at = now()
          where id in (
            select id from service.deliveries
            where (status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and lease_until < now())
            order by next_attempt_at
            limit ${limit}::int
            for update skip locked)
          returning id, message_id, webhook_id, account_id, scheduled_attempt_count, recover_run_id)
        select c.*, w.url, m.payload,
          (select array_agg(s.secret order by s.created_at desc) from service.webhook_secrets s
            where s.webhook_id = w.id and (s.expires_at is null or s.expires_at > now())) as secrets
        from claimed c
        left join service.webhooks w on w.id = c.webhook_id and not w.disabled and w.deleted_at is null
        left join service.messages m on m.id = c.message_id`,
  );
  return rows.map((r) => {
    const claim: TClaim = {
      id: r.id,
      messageId: r.message_id,
      webhookId: r.webhook_id,
      accountId: r.account_id,
      scheduledAttemptCount: Number(r.scheduled_attempt_count),
      recoverRunId: r.recover_run_id ?? null,
      leaseOwner: owner,
    };
    const target = r.url !== null && r.payload !== null ? { url: r.url, payload: r.payload, secrets: r.secrets ?? [] } : null;
    return { claim, target };
  });
}

/**
 * Milliseconds until the next delivery falls due by the database's clock — a waiting one's next
 * attempt, or a lease running out — or null when none waits. 0 or less means due now.
 */
export async function nextDueInMs(db: DbOrTx): Promise<number | null> {
  const [row] = await queryRows<{ ms: number | string | null }>(
    db,
    sql`select extract(epoch from (least(
          (select min(next_attempt_at) from service.deliveries where status = 'pending'),
          (select min(lease_until) from service.deliveries where status = 'sending')
        ) - clock_timestamp())) * 1000 as ms`,
  );
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}

/** Gives a claimed delivery back, unattempted, for any worker to take now (its lease is still ours). */
export async function releaseClaim(db: DbOrTx, claim: TClaim): Promise<void> {
  await db.execute(
    sql`update service.deliveries set status = 'pending', lease_owner = null, lease_until = null, updated_at = now()
        where id = ${claim.id} and status = 'sending' and lease_owner = ${claim.leaseOwner}`,
  );
}
