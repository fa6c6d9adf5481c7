import { eq } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { env } from '@/lib/env';
import { activeSecrets } from '@/lib/service/webhooks/webhook-secrets';
import type { TClaim } from './claim';
import { abandonClaim, recordScheduledAttempt } from './record-attempt';
import { sendWebhook } from './send-webhook';

/**
 * The request timeout a worker uses: DELIVERY_TIMEOUT_MS, but always well inside the lease, so a
 * live worker's lease never runs out mid-attempt (which would let another worker send it again).
 */
export function attemptTimeoutMs(): number {
  return Math.min(env.DELIVERY_TIMEOUT_MS, Math.floor(env.DELIVERY_LEASE_MS * 0.75));
}

export type TDeliveryOutcome = 'success' | 'failed' | 'abandoned';

/** One claimed delivery: sign, POST, record. Errors of the database are left to the caller. */
export async function deliverClaim(claim: TClaim): Promise<TDeliveryOutcome> {
  const db = await getDb();
  const [ctx] = await db
    .select({ payload: schema.messages.payload, url: schema.webhooks.url, disabled: schema.webhooks.disabled, deletedAt: schema.webhooks.deletedAt })
    .from(schema.messages)
    .innerJoin(schema.webhooks, eq(schema.webhooks.id, claim.webhookId))
    .where(eq(schema.messages.id, claim.messageId));
  if (!ctx || ctx.disabled || ctx.deletedAt) {
    await abandonClaim(claim);
    return 'abandoned';
  }
  const secrets = await activeSecrets(db, claim.webhookId);
  const result = await sendWebhook({ url: ctx.url, messageId: claim.messageId, body: ctx.payload, secrets, timeoutMs: attemptTimeoutMs() });
  await recordScheduledAttempt(claim, ctx.url, result);
  return result.ok ? 'success' : 'failed';
}
