import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { ID_PREFIX } from '@/lib/constants';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { getWebhook } from './get-webhook';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
const GENERATED_SECRET_BYTES = 24;

export function generateSecret(): string {
  return `${ID_PREFIX.webhookSecret}${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;
}

/** Every secret that signs now, newest first: the current one, and the previous one for 24 h after a rotation. */
export async function activeSecrets(db: DbOrTx, webhookId: string): Promise<string[]> {
  const rows = await db
    .select({ secret: schema.webhookSecrets.secret })
    .from(schema.webhookSecrets)
    .where(and(eq(schema.webhookSecrets.webhookId, webhookId), or(isNull(schema.webhookSecrets.expiresAt), gt(schema.webhookSecrets.expiresAt, sql`now()`))))
    .orderBy(desc(schema.webhookSecrets.createdAt));
  return rows.map((r) => r.secret);
}

export async function getWebhookSecret(accountId: string, webhookId: string): Promise<{ key: string }> {
  const db = await getDb();
  await getWebhook(accountId, webhookId, { db });
  const [row] = await db
    .select({ secret: schema.webhookSecrets.secret })
    .from(schema.webhookSecrets)
    .where(and(eq(schema.webhookSecrets.webhookId, webhookId), isNull(schema.webhookSecrets.expiresAt)));
  // Every webhook is created with a secret; a missing one would be a bug, not a 404.
  if (!row) throw new Error(`webhook ${webhookId} has no current secret`);
  return { key: row.secret };
}

/**
 * A new current secret; the old one keeps signing for 24 h. At most two secrets sign at once:
 * an older rotated-out secret still inside its window stops now.
 */
export async function rotateWebhookSecret(accountId: string, webhookId: string): Promise<{ key: string }> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    await getWebhook(accountId, webhookId, { db: tx, forUpdate: true });
    const secrets = schema.webhookSecrets;
    await tx
      .update(secrets)
      .set({ expiresAt: sql`now()` })
      .where(and(eq(secrets.webhookId, webhookId), isNotNull(secrets.expiresAt), gt(secrets.expiresAt, sql`now()`)));
    await tx
      .update(secrets)
      .set({ expiresAt: sql`now() + ${SECRET_OVERLAP_MS}::int * interval '1 millisecond'` })
      .where(and(eq(secrets.webhookId, webhookId), isNull(secrets.expiresAt)));
    const key = generateSecret();
    await tx.insert(secrets).values({ webhookId, secret: key });
    return { key };
  });
}
