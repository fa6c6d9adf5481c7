import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { UUID_PATTERN } from '@/lib/service/connects/schemas';
import { grantToJson, type TGrantJson } from './grant-json';

/**
 * A grant by id, of the account and, when a Connect is named (its API key was sent), of that
 * Connect: 400 when the id is not a UUID, 404 when it is not theirs.
 */
export async function getGrant(owner: { accountId: string; connectId?: string }, id: string): Promise<TGrantJson> {
  if (!UUID_PATTERN.test(id)) {
    throw new ApiError('bad_request', 'The grant id in the path must be a UUID.', {
      errors: [{ path: 'id', message: 'must be a UUID' }],
    });
  }
  const g = schema.grants;
  const db = await getDb();
  const [row] = await db
    .select()
    .from(g)
    .where(and(eq(g.id, id), eq(g.accountId, owner.accountId), owner.connectId !== undefined ? eq(g.connectId, owner.connectId) : undefined));
  if (!row) throw new ApiError('not_found', `No grant with the id ${id} for this ${owner.connectId !== undefined ? 'Connect' : 'account'}.`);
  return grantToJson(row);
}

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
