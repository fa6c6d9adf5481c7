import 'server-only';
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema/console';
import type { TWebhookView } from './webhook-view';

// Who paused a webhook, for "paused since 14:02 UTC by ops@…": this console's audit log
// (`webhook.pause`, the webhook its first target, at or after the service's pausedAt give or take a
// minute of clocks). A pause made through the API by another client has no row here: null.

const SKEW_MS = 60_000;

/** `views` with `pausedBy` set on the paused ones, in one read of the audit log. */
export async function withPausedBy<T extends TWebhookView>(views: T[]): Promise<T[]> {
  const paused = views.filter((v) => v.paused && v.pausedAt);
  if (paused.length === 0) return views;
  const since = new Date(Math.min(...paused.map((v) => Date.parse(v.pausedAt!))) - SKEW_MS);
  const db = await getDb();
  const rows = await db
    .select({ actor: auditLog.actor, at: auditLog.at, webhookId: sql<string>`split_part(${auditLog.target}, ' ', 1)` })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, 'webhook.pause'),
        eq(auditLog.result, 'ok'),
        gte(auditLog.at, since),
        inArray(
          sql`split_part(${auditLog.target}, ' ', 1)`,
          paused.map((v) => v.id),
        ),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(500);
  return views.map((v) => {
    if (!v.paused || !v.pausedAt) return v;
    const from = Date.parse(v.pausedAt) - SKEW_MS;
    const row = rows.find((r) => r.webhookId === v.id && r.at.getTime() >= from);
    return { ...v, pausedBy: row?.actor ?? null };
  });
}
