import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import type { TConnectRow } from './connect-json';

/** The account's Connect; unknown ids and other accounts' Connects are both a 404. */
export async function getConnect(accountId: string, id: string): Promise<TConnectRow> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(schema.connects)
    .where(and(eq(schema.connects.id, id), eq(schema.connects.accountId, accountId)));
  if (!row) throw new ApiError('not_found', `No Connect with the id ${id}.`);
  return row;
}

/** An active Connect and its nonprofit's name, for the public donor page (no account: the CID is the address). */
export async function findActiveConnect(cid: string): Promise<{ connect: TConnectRow; nonprofitName: string } | null> {
  const db = await getDb();
  const [row] = await db
    .select({ connect: schema.connects, nonprofitName: schema.nonprofits.name })
    .from(schema.connects)
    .innerJoin(schema.nonprofits, eq(schema.nonprofits.id, schema.connects.nonprofitId))
    .where(and(eq(schema.connects.id, cid), eq(schema.connects.active, true)));
  return row ?? null;
}
