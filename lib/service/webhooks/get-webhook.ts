import { and, eq, isNull } from 'drizzle-orm';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import type { TWebhookRow } from './webhook-json';

export function webhookNotFound(id: string): ApiError {
  return new ApiError('not_found', `No webhook with the id ${id}.`);
}

/** The account's live webhook; unknown, deleted and other accounts' ids are all a 404. */
export async function getWebhook(accountId: string, id: string, { db, forUpdate = false }: { db?: DbOrTx; forUpdate?: boolean } = {}): Promise<TWebhookRow> {
  const conn = db ?? (await getDb());
  const query = conn
    .select()
    .from(schema.webhooks)
    .where(and(eq(schema.webhooks.id, id), eq(schema.webhooks.accountId, accountId), isNull(schema.webhooks.deletedAt)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw webhookNotFound(id);
  return row;
}
