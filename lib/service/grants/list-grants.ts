import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { badPageToken } from '@/lib/http/page-limit';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { UUID_PATTERN } from '@/lib/service/connects/schemas';
import { grantToJson, type TGrantJson } from './grant-json';
import { olderThan, newestFirst } from '@/lib/db/paging';

/** One page of a Connect's grants, newest first. */
export async function listGrants(connectId: string, { limit, cursor, scope }: TPageParams): Promise<{ results: TGrantJson[]; nextPageToken?: string }> {
  if (cursor && !UUID_PATTERN.test(cursor.id)) {
    throw badPageToken('service');
  }
  const g = schema.grants;
  const db = await getDb();
  const rows = await db
    .select()
    .from(g)
    .where(and(eq(g.connectId, connectId), olderThan(g.createdAt, g.id, cursor)))
    .orderBy(...newestFirst(g.createdAt, g.id))
    .limit(limit + 1);
  return pageOf(rows, limit, (r) => r, grantToJson, scope);
}
