import 'server-only';
import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { trackedWebhooks } from '@/lib/db/schema/console';
import type { TEnvironmentName } from '../connect-api/environments';

// The webhooks this console created or was told to track, per environment: the service may not
// offer a list (EXT), and the console must still know which of its receivers each one feeds.

export type TTrackedWebhook = { webhookId: string; receiverId: string | null; url: string; description: string; createdAt: Date };

const columns = {
  webhookId: trackedWebhooks.webhookId,
  receiverId: trackedWebhooks.receiverId,
  url: trackedWebhooks.url,
  description: trackedWebhooks.description,
  createdAt: trackedWebhooks.createdAt,
};

/** Starts (or updates) tracking a webhook; tracking one twice keeps one row. */
export async function trackWebhook(input: {
  environment: TEnvironmentName;
  webhookId: string;
  receiverId?: string | null;
  url?: string;
  description?: string;
}): Promise<void> {
  const webhookId = input.webhookId.trim();
  if (!webhookId || webhookId.length > 200) throw new Error('A webhook id is required.');
  const db = await getDb();
  const values = {
    environment: input.environment,
    webhookId,
    receiverId: input.receiverId ?? null,
    url: input.url ?? '',
    description: input.description ?? '',
  };
  await db
    .insert(trackedWebhooks)
    .values(values)
    .onConflictDoUpdate({
      target: [trackedWebhooks.environment, trackedWebhooks.webhookId],
      set: {
        // Only what the caller said: a re-track by id alone keeps the known receiver and URL.
        ...(input.receiverId !== undefined ? { receiverId: values.receiverId } : {}),
        ...(input.url !== undefined ? { url: values.url } : {}),
        ...(input.description !== undefined ? { description: values.description } : {}),
        createdAt: sql`${trackedWebhooks.createdAt}`,
      },
    });
}

export async function listTrackedWebhooks(environment: TEnvironmentName): Promise<TTrackedWebhook[]> {
  const db = await getDb();
  return db
    .select(columns)
    .from(trackedWebhooks)
    .where(eq(trackedWebhooks.environment, environment))
    .orderBy(desc(trackedWebhooks.createdAt), desc(trackedWebhooks.webhookId));
}

export async function getTrackedWebhook(environment: TEnvironmentName, webhookId: string): Promise<TTrackedWebhook | null> {
  const db = await getDb();
  const [row] = await db
    .select(columns)
    .from(trackedWebhooks)
    .where(and(eq(trackedWebhooks.environment, environment), eq(trackedWebhooks.webhookId, webhookId)))
    .limit(1);
  return row ?? null;
}
