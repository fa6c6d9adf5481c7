import { asc, inArray } from 'drizzle-orm';
import { type Tx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';

export type TLockedWebhook = { id: string; accountId: string; url: string; disabled: boolean; failingSince: Date | null };

/**
 * The webhooks of a batch of attempt outcomes, locked in id order before anything is written:
 * every batch takes its webhooks' rows in the same order, so two workers never deadlock, and the
 * state read here is the one this transaction changes, which tells a change of state (failing →
 * recovered, enabled → disabled) from a repeat.
 *
 * FOR NO KEY UPDATE, not FOR UPDATE: the batch changes state columns, never the key, and the weaker
 * lock does not conflict with the KEY SHARE lock that a foreign key's check takes on its webhook (a
 * secret's, a recover run's; a delivery's until migration 0045), so those never wait for the worker's bookkeeping.
 */
export async function lockWebhookStates(tx: Tx, webhookIds: string[]): Promise<Map<string, TLockedWebhook>> {
  const w = schema.webhooks;
  if (webhookIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: w.id, accountId: w.accountId, url: w.url, disabled: w.disabled, failingSince: w.failingSince })
    .from(w)
    .where(inArray(w.id, [...new Set(webhookIds)]))
    .orderBy(asc(w.id))
    .for('no key update');
  return new Map(rows.map((r) => [r.id, r]));
}
