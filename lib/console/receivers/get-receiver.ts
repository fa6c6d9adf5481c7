import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { receivers } from '@/lib/db/schema/console';
import type { TReceiver } from './types';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A receiver by its id or its slug; null when there is none. */
export async function getReceiver(idOrSlug: string): Promise<TReceiver | null> {
  const db = await getDb();
  const where = UUID.test(idOrSlug) ? eq(receivers.id, idOrSlug) : eq(receivers.slug, idOrSlug);
  const [row] = await db.select().from(receivers).where(where).limit(1);
  return row ?? null;
}
