import { eq } from 'drizzle-orm';
import { type Tx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { emitOperationalEvent } from '@/lib/service/events/emit-operational-event';
import { forgetFanoutWebhooks, notifyWebhooksChanged } from './fanout-targets';
import { getWebhook } from './get-webhook';
import { pauseChange, unparkDeliveries } from './pause-webhook';
import { resetRateSlots, startRateSchedule } from './rate-schedule';
import type { TUpdateWebhook } from './schemas';
import type { TWebhookRow } from './webhook-json';
import { wakingTransaction } from '@/lib/service/delivery/wake-workers';

/**
 * Changes the given fields. Disabling records why and when (`webhook.disabled`); re-enabling a
 * disabled webhook forgets both, and its failing stretch (`webhook.recovered`). Pausing and
 * resuming: pause-webhook.ts.
 */
export async function updateWebhook(accountId: string, webhookId: string, input: TUpdateWebhook): Promise<TWebhookRow> {
  // Dropped however the transaction ends (the other processes hear its NOTIFY at commit).
  try {
    return await wakingTransaction((tx) => updateIn(tx, accountId, webhookId, input));
  } finally {
    forgetFanoutWebhooks(accountId);
  }
}

async function updateIn(tx: Tx, accountId: string, webhookId: string, input: TUpdateWebhook): Promise<TWebhookRow> {
  const current = await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
  const now = new Date();
  const change: Partial<typeof schema.webhooks.$inferInsert> = { updatedAt: now, ...pauseChange(current, input.paused, now) };
  if (input.url !== undefined) change.url = input.url;
  if (input.eventTypes !== undefined) change.eventTypes = input.eventTypes;
  if (input.description !== undefined) change.description = input.description;
  if (input.metadata !== undefined) change.metadata = input.metadata;
  if (input.rateLimit !== undefined) change.rateLimit = input.rateLimit;
  if (input.disabled === true && !current.disabled) {
    change.disabled = true;
    change.disabledReason = 'disabled through the API';
    change.disabledAt = now;
  } else if (input.disabled === false && current.disabled) {
    change.disabled = false;
    change.disabledReason = null;
    change.disabledAt = null;
    change.failingSince = null;
  }
  const [row] = await tx.update(schema.webhooks).set(change).where(eq(schema.webhooks.id, webhookId)).returning();
  await notifyWebhooksChanged(tx, accountId);
  if (current.pausedAt && change.pausedAt === null) await unparkDeliveries(tx, webhookId);
  if (row.rateLimit !== current.rateLimit) {
    if (row.rateLimit !== null) await startRateSchedule(tx, webhookId);
    await resetRateSlots(tx, webhookId);
  }
  const about = { id: row.id, accountId, url: row.url, failingSince: current.failingSince };
  if (change.disabled === true) {
    await emitOperationalEvent(tx, { type: 'webhook.disabled', webhook: about, reason: 'disabled through the API', disabledAt: now, cause: null });
  } else if (change.disabled === false) {
    await emitOperationalEvent(tx, { type: 'webhook.recovered', webhook: about, recoveredAt: now, cause: null });
  }
  return row;
}
