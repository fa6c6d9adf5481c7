import 'server-only';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import type { TEnvironmentName } from '../connect-api/environments';

// The Connects created from this console, newest first, per environment — the API has no list of
// Connects. Kept as one JSON list in console.settings, updated by a single statement (no lost
// update when two staff create at once), capped at MAX_REMEMBERED.

export const MAX_REMEMBERED = 50;

const ZCreatedConnect = z.object({
  id: z.string(),
  name: z.string(),
  nonprofitId: z.string(),
  ein: z.string(),
  createdAt: z.string(),
});
export type TCreatedConnect = z.output<typeof ZCreatedConnect>;

const keyOf = (environment: TEnvironmentName) => `created_connects:${environment}`;

/** Puts the Connect first in the list (once, even when created again). */
export async function rememberConnect(environment: TEnvironmentName, connect: TCreatedConnect): Promise<void> {
  const db = await getDb();
  const entry = JSON.stringify([ZCreatedConnect.parse(connect)]);
  await db.execute(sql`
    insert into console.settings (key, value) values (${keyOf(environment)}, ${entry})
    on conflict (key) do update set value = (
      select coalesce(jsonb_agg(t.e order by t.ord), '[]'::jsonb)::text
      from (
        select e, ord
        from jsonb_array_elements(excluded.value::jsonb || console.settings.value::jsonb) with ordinality as a(e, ord)
        where ord = 1 or e->>'id' <> excluded.value::jsonb->0->>'id'
        order by ord
        limit ${MAX_REMEMBERED}
      ) t
    )`);
}

export async function listCreatedConnects(environment: TEnvironmentName): Promise<TCreatedConnect[]> {
  const db = await getDb();
  const [row] = await queryRows<{ value: string }>(db, sql`select value from console.settings where key = ${keyOf(environment)}`);
  if (!row) return [];
  const parsed = z.array(ZCreatedConnect).safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : [];
}
