import { and, eq, inArray, isNull } from 'drizzle-orm';
import { schema, type DbOrTx } from '@/lib/db/client';
import { env } from '@/lib/env';
import { activeSecretsOf } from '@/lib/service/webhooks/webhook-secrets';
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

/** What a batch of claims needs to be sent — bodies, URLs, active secrets — in two queries. */
export async function prepareDeliveries(db: DbOrTx, claims: TClaim[]): Promise<TDeliveryJob[]> {
  if (claims.length === 0) return [];
  const d = schema.deliveries;
  const w = schema.webhooks;
  const rows = await db
    .select({ id: d.id, payload: schema.messages.payload, url: w.url })
    .from(d)
    .innerJoin(schema.messages, eq(schema.messages.id, d.messageId))
    .innerJoin(w, eq(w.id, d.webhookId))
    .where(and(inArray(d.id, claims.map((c) => c.id)), eq(w.disabled, false), isNull(w.deletedAt)));
  const secrets = await activeSecretsOf(db, claims.map((c) => c.webhookId));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return claims.map((claim) => {
    const row = byId.get(claim.id);
    return { claim, target: row ? { url: row.url, payload: row.payload, secrets: secrets.get(claim.webhookId) ?? [] } : null };
  });
}

/** One signed POST of a prepared delivery. */
export function attemptDelivery(job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }): Promise<TSendResult> {
  const { claim, target } = job;
  return sendWebhook({ url: target.url, messageId: claim.messageId, body: target.payload, secrets: target.secrets, timeoutMs: attemptTimeoutMs() });
}
