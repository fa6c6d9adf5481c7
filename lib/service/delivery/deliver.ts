import { queryRows, sql, type DbOrTx } from '@/lib/db/client';
import { env } from '@/lib/env';
import type { TClaim } from './claim';
import { sendWebhook, type TSendResult } from './send-webhook';

/**
 * The request timeout a worker uses: DELIVERY_TIMEOUT_MS, but always well inside the lease, so a
 * live worker's lease never runs out mid-attempt (which would let another worker send it again).
 */
export function attemptTimeoutMs(): number {
  return Math.min(env.DELIVERY_TIMEOUT_MS, Math.floor(env.DELIVERY_LEASE_MS * 0.75));
}

/** A claimed delivery with what sending it takes; `target` null: the webhook was disabled or deleted meanwhile. */
export type TDeliveryJob = { claim: TClaim; target: { url: string; payload: string; secrets: string[] } | null };

/** What a batch of claims needs to be sent — bodies, URLs, active secrets — in one query. */
export async function prepareDeliveries(db: DbOrTx, claims: TClaim[]): Promise<TDeliveryJob[]> {
  if (claims.length === 0) return [];
  const rows = await queryRows<{ id: string; payload: string; url: string; secrets: string[] | null }>(
    db,
    sql`select d.id, m.payload, w.url,
               (select array_agg(s.secret order by s.created_at desc) from service.webhook_secrets s
                where s.webhook_id = w.id and (s.expires_at is null or s.expires_at > now())) as secrets
        from service.deliveries d
        join service.messages m on m.id = d.message_id
        join service.webhooks w on w.id = d.webhook_id
        where d.id in (${sql.join(
          claims.map((c) => sql`${c.id}::uuid`),
          sql`, `,
        )}) and not w.disabled and w.deleted_at is null`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return claims.map((claim) => {
    const row = byId.get(claim.id);
    return { claim, target: row ? { url: row.url, payload: row.payload, secrets: row.secrets ?? [] } : null };
  });
}

/** One signed POST of a prepared delivery. */
export function attemptDelivery(job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }): Promise<TSendResult> {
  const { claim, target } = job;
  return sendWebhook({ url: target.url, messageId: claim.messageId, body: target.payload, secrets: target.secrets, timeoutMs: attemptTimeoutMs() });
}
