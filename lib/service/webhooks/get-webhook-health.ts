import { z } from 'zod';
import { queryRows, sql } from '@/lib/db/client';
import { getDb } from '@/lib/db/client';
import { getWebhook } from './get-webhook';

// EXT GET /v1/webhooks/{id}/health?window=1h|24h|7d: the few figures an alert rule needs, counted
// by SQL over the webhook's attempts (nothing loaded into memory). The fuller /stats of issue 11
// item 1 may replace it; the window names are the same.

export const HEALTH_WINDOWS = { '1h': 3600, '24h': 86400, '7d': 7 * 86400 } as const;
export const ZHealthQuery = z.object({
  window: z.enum(Object.keys(HEALTH_WINDOWS) as [keyof typeof HEALTH_WINDOWS], { message: 'must be one of: 1h, 24h, 7d' }).default('24h'),
});

export type TWebhookHealth = {
  window: keyof typeof HEALTH_WINDOWS;
  attempts: number;
  successes: number;
  /** successes / attempts within the window, 0–1; null without attempts. */
  successRate: number | null;
  /** Failed attempts since the newest successful one (all of them when none succeeded). */
  failureStreak: number;
  lastSuccessAt: string | null;
  disabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
};

export async function getWebhookHealth(accountId: string, webhookId: string, window: keyof typeof HEALTH_WINDOWS): Promise<TWebhookHealth> {
  const db = await getDb();
  const webhook = await getWebhook(accountId, webhookId, { db });
  const seconds = HEALTH_WINDOWS[window];
  const [row] = await queryRows<{ attempts: string | number; successes: string | number; streak: string | number; last_success: Date | string | null }>(
    db,
    sql`with last_success as (
          select max(created_at) as at from service.attempts where webhook_id = ${webhookId} and status = 'success'
        )
        select
          (select count(*) from service.attempts where webhook_id = ${webhookId} and created_at >= now() - ${seconds}::int * interval '1 second') as attempts,
          (select count(*) from service.attempts where webhook_id = ${webhookId} and status = 'success' and created_at >= now() - ${seconds}::int * interval '1 second') as successes,
          (select count(*) from service.attempts, last_success
            where webhook_id = ${webhookId} and status = 'failed' and (last_success.at is null or created_at > last_success.at)) as streak,
          (select at from last_success) as last_success`,
  );
  const attempts = Number(row.attempts);
  const successes = Number(row.successes);
  return {
    window,
    attempts,
    successes,
    successRate: attempts === 0 ? null : successes / attempts,
    failureStreak: Number(row.streak),
    lastSuccessAt: row.last_success ? new Date(row.last_success).toISOString() : null,
    disabled: webhook.disabled,
    disabledReason: webhook.disabledReason,
    disabledAt: webhook.disabledAt?.toISOString() ?? null,
  };
}
