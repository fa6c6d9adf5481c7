import { and, eq } from 'drizzle-orm';
import { getDb, schema } from '@/lib/db/client';
import { grantToJson, type TGrantJson } from './grant-json';

/** A Connect's grant by its tracking id (the donor's confirmation page). */
export async function findGrantByTrackingId(connectId: string, trackingId: string): Promise<TGrantJson | null> {
  if (!/^GC-[A-Z0-9]{6}$/.test(trackingId)) return null;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(schema.grants)
    .where(and(eq(schema.grants.connectId, connectId), eq(schema.grants.trackingId, trackingId)));
  return row ? grantToJson(row) : null;
}
