import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { settings } from '@/lib/db/schema/console';

// Small key/value settings of the console, shared by every instance through the database.

/** The stored value of `key`, or null. */
export async function readSetting(key: string): Promise<string | null> {
  const db = await getDb();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row?.value ?? null;
}

/** The stored value of `key`; when none, stores `make()` — the first instance to write wins. */
export async function getOrCreateSetting(key: string, make: () => string): Promise<string> {
  const db = await getDb();
  const [existing] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  if (existing) return existing.value;
  await db.insert(settings).values({ key, value: make() }).onConflictDoNothing();
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
  return row.value;
}
