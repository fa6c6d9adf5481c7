import { sql } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { prefixedId } from '@/lib/ids';
import { forgetFanoutWebhooks, notifyWebhooksChanged } from './fanout-targets';
import type { TCreateWebhook } from './schemas';
import { generateSecret } from './webhook-secrets';
import { startRateSchedule } from './rate-schedule';
import type { TWebhookRow } from './webhook-json';

/** A webhook and its signing secret (the caller's, or a new one), in one transaction. */
export async function createWebhook(accountId: string, input: TCreateWebhook): Promise<TWebhookRow> {
  const db = await getDb();
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(schema.webhooks)
      .values({
        id: prefixedId(ID_PREFIX.webhook),
        accountId,
        url: input.url,
        eventTypes: input.eventTypes,
        description: input.description,
        disabled: input.disabled,
        disabledReason: input.disabled ? 'created disabled' : null,
        disabledAt: input.disabled ? sql`now()` : null,
        metadata: input.metadata ?? {},
        rateLimit: input.rateLimit,
      })
      .returning();
    if (row.rateLimit !== null) await startRateSchedule(tx, row.id);
    await tx.insert(schema.webhookSecrets).values({ webhookId: row.id, secret: input.secret ?? generateSecret() });
    await notifyWebhooksChanged(tx, accountId);
    return row;
  });
  forgetFanoutWebhooks(accountId);
  return row;
}
