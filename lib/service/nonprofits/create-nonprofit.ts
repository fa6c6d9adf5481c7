import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import type { TNonprofitRow } from './nonprofit-json';
import type { TCreateNonprofit } from './schemas';

/**
 * Registers a nonprofit, or returns the one already registered under that EIN, unchanged.
 * Insert-or-nothing then select: concurrent creates of one EIN end with one record.
 */
export async function createNonprofit(input: TCreateNonprofit): Promise<TNonprofitRow> {
  const db = await getDb();
  await db
    .insert(schema.nonprofits)
    .values({
      ein: input.ein,
      name: input.name ?? `Nonprofit ${input.ein}`,
      preferredName: input.preferredName ?? null,
      website: input.website ?? null,
      contact: input.user,
    })
    .onConflictDoNothing({ target: schema.nonprofits.ein });
  const [row] = await db.select().from(schema.nonprofits).where(eq(schema.nonprofits.ein, input.ein));
  return row;
}
