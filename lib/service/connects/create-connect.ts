import { and, eq } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { sha256 } from '@/lib/crypto/secrets';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { prefixedId, randomString } from '@/lib/ids';
import { findNonprofitById } from '@/lib/service/nonprofits/get-nonprofit';
import type { TConnectRow } from './connect-json';
import { UUID_PATTERN, type TCreateConnect } from './schemas';

export function newApiKey(): { apiKey: string; apiKeyHash: string } {
  const apiKey = `${ID_PREFIX.apiKey}${randomString(32)}`;
  return { apiKey, apiKeyHash: sha256(apiKey) };
}

/** The `nonprofit` query parameter as a UUID, or a 400 saying what is wrong. */
export function parseNonprofitParam(value: string | null): string {
  if (!value) {
    throw new ApiError('bad_request', 'The nonprofit query parameter is required: POST /v1/connects?nonprofit=<nonprofit id>.', {
      errors: [{ path: 'nonprofit', message: 'required' }],
    });
  }
  if (!UUID_PATTERN.test(value)) {
    throw new ApiError('bad_request', 'The nonprofit query parameter must be a nonprofit id (a UUID).', {
      errors: [{ path: 'nonprofit', message: 'must be a UUID' }],
    });
  }
  return value.toLowerCase();
}

/**
 * The account's Connect for a nonprofit: created on first call, the existing one (unchanged)
 * afterwards. One per nonprofit per account, also under concurrent calls (unique index).
 */
export async function createConnect(accountId: string, nonprofitId: string, input: TCreateConnect): Promise<TConnectRow> {
  const nonprofit = await findNonprofitById(nonprofitId);
  if (!nonprofit) throw new ApiError('not_found', `No nonprofit has the id ${nonprofitId}.`);
  const db = await getDb();
  const where = and(eq(schema.connects.accountId, accountId), eq(schema.connects.nonprofitId, nonprofitId));
  const [existing] = await db.select().from(schema.connects).where(where);
  if (existing) return existing;
  await db
    .insert(schema.connects)
    .values({
      id: prefixedId(ID_PREFIX.connect),
      accountId,
      nonprofitId,
      name: input.name ?? nonprofit.name,
      metadata: input.metadata ?? {},
      ...newApiKey(),
    })
    .onConflictDoNothing({ target: [schema.connects.accountId, schema.connects.nonprofitId] });
  const [row] = await db.select().from(schema.connects).where(where);
  return row;
}
