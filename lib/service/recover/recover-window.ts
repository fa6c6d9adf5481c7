import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { ZTimestamp } from '@/lib/service/webhooks/schemas';

/** The longest window one recover run may cover (Svix's limit). */
export const RECOVER_MAX_WINDOW_DAYS = 14;
const MAX_WINDOW_MS = RECOVER_MAX_WINDOW_DAYS * 86_400_000;

export type TRecoverWindow = { since: Date; until: Date | null };

/**
 * `since` (required, not in the future) and `until` (optional, after `since`); the window they
 * make — `until` or now — spans at most 14 days. Each wrong value is a 400 naming its field.
 */
function refineWindow(v: { since: string; until?: string }, ctx: z.RefinementCtx): void {
  const now = Date.now();
  const since = Date.parse(v.since);
  const until = v.until === undefined ? null : Date.parse(v.until);
  if (since > now) ctx.addIssue({ code: 'custom', path: ['since'], message: 'must not be in the future' });
  if (until !== null && until <= since) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be after since' });
  else if ((until ?? now) - since > MAX_WINDOW_MS) {
    ctx.addIssue({ code: 'custom', path: ['since'], message: `must be at most ${RECOVER_MAX_WINDOW_DAYS} days before ${until === null ? 'now' : 'until'}` });
  }
}

export const toRecoverWindow = (v: { since: string; until?: string }): TRecoverWindow => ({
  since: new Date(v.since),
  until: v.until === undefined ? null : new Date(v.until),
});

const fields = {
  since: ZTimestamp.meta({ description: 'Start of the window (inclusive): not in the future, at most 14 days before `until` (or now).' }),
  until: ZTimestamp.optional().meta({ description: 'End of the window (exclusive), after `since`; now when left out.' }),
};

/** The window's fields as the API documents them (the refinements below are checked on top). */
export const ZRecoverWindowFields = z.strictObject(fields);

/** The body of POST /v1/webhooks/{id}/recover. */
export const ZRecoverBody = z.strictObject(fields).superRefine(refineWindow).transform(toRecoverWindow);

/** The query of the preview, GET /v1/webhooks/{id}/recover?since=&until=. */
export const ZRecoverQuery = z.object(fields).superRefine(refineWindow);

export type TWindowCount = { messages: number; since: string; until: string };

/**
 * The preview of a window's operation: how many of the webhook's deliveries `where(end)` picks, the
 * window's end being `until` or now. 404 for another account's or an unknown webhook.
 */
export async function countInWindow(
  accountId: string,
  webhookId: string,
  window: TRecoverWindow,
  where: (end: Date) => SQL | undefined,
): Promise<TWindowCount> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const end = window.until ?? new Date();
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.deliveries)
    .where(where(end));
  return { messages: Number(row?.n ?? 0), since: window.since.toISOString(), until: end.toISOString() };
}
