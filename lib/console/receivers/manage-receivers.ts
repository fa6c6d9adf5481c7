import { desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { receivers } from '@/lib/db/schema/console';
import { env } from '@/lib/env';
import { ApiError, validationError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { UUID } from './get-receiver';
import { forgetCachedReceiver } from './ingest-cache';
import { ZReceiverInput, ZReceiverPatch } from './receiver-input';
import type { TReceiver } from './types';

// Creating, listing, reading and changing receivers. Bad input throws ApiError (400/404/409) with a
// readable message. No 'server-only' marker: the console CLI (plain Node) creates receivers too.

function randomSlug(): string {
  return randomString(16, 'abcdefghijklmnopqrstuvwxyz0123456789');
}

export function ingestUrl(slug: string): string {
  return `${env.CONSOLE_PUBLIC_URL}/ingest/${slug}`;
}

export async function createReceiver(input: { name: string; slug?: string; secret?: string }): Promise<TReceiver> {
  const parsed = ZReceiverInput.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error, 'The receiver');
  const { name, slug, secret } = parsed.data;
  const db = await getDb();
  const [row] = await db
    .insert(receivers)
    .values({ name, slug: slug ?? randomSlug(), secrets: secret ? [secret] : [] })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new ApiError('conflict', `The slug "${slug}" is taken; choose another.`);
  // A lookup of this slug in flight may have read the store before the row: not kept.
  forgetCachedReceiver(row.slug);
  return row;
}

export async function listReceivers(): Promise<TReceiver[]> {
  const db = await getDb();
  return db.select().from(receivers).orderBy(desc(receivers.createdAt), desc(receivers.id));
}

export async function updateReceiver(
  id: string,
  patch: { name?: string; secrets?: string[]; responseStatus?: number; responseBody?: string; responseDelayMs?: number },
): Promise<TReceiver> {
  const parsed = ZReceiverPatch.safeParse(patch);
  if (!parsed.success) throw validationError(parsed.error, 'The receiver settings');
  const changes = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  if (!UUID.test(id)) throw new ApiError('not_found', 'No such receiver.');
  const db = await getDb();
  const [row] = await db
    .update(receivers)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(receivers.id, id))
    .returning();
  if (!row) throw new ApiError('not_found', 'No such receiver.');
  forgetCachedReceiver(row.slug);
  return row;
}
