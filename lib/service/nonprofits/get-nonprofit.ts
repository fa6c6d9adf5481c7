import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import type { TNonprofitRow } from './nonprofit-json';
import { EIN_PATTERN } from './schemas';

/** The nonprofit registered under `ein`: 400 when it is not 9 digits, 404 when none is. */
export async function getNonprofitByEin(ein: string): Promise<TNonprofitRow> {
  if (!EIN_PATTERN.test(ein)) {
    throw new ApiError('bad_request', 'The EIN must be exactly 9 digits, no dash.', { errors: [{ path: 'ein', message: 'must be exactly 9 digits' }] });
  }
  const db = await getDb();
  const [row] = await db.select().from(schema.nonprofits).where(eq(schema.nonprofits.ein, ein));
  if (!row) throw new ApiError('not_found', `No nonprofit is registered with EIN ${ein}.`);
  return row;
}

export async function findNonprofitById(id: string): Promise<TNonprofitRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(schema.nonprofits).where(eq(schema.nonprofits.id, id));
  return row;
}
