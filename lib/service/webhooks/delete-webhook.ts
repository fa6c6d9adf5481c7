import { and, eq, isNull, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { forgetFanoutWebhooks, notifyWebhooksChanged } from './fanout-targets';
import { webhookNotFound } from './get-webhook';

/**
 * Soft delete: the webhook stops receiving events and disappears from the API (404 from now on);
 * its rows stay, so attempts already recorded keep their references. Queued deliveries end
 * `failed` when the worker next picks them up.
 */
export async function deleteWebhook(accountId: string, webhookId: string): Promise<void> {
  const db = await getDb();
  const w = schema.webhooks;
  const deleted = await db.transaction(async (tx) => {
    const rows = await tx
      .update(w)
      .set({ deletedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(w.id, webhookId), eq(w.accountId, accountId), isNull(w.deletedAt)))
      .returning({ id: w.id });
    if (rows.length > 0) await notifyWebhooksChanged(tx, accountId);
    return rows;
  });
  forgetFanoutWebhooks(accountId);
  if (deleted.length === 0) throw webhookNotFound(webhookId);
}
