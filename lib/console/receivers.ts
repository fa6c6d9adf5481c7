import { and, asc, desc, eq, getTableColumns, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { TSignatureVerdict } from '@/lib/constants';
import { getDb } from '@/lib/db/client';
import { receipts, receivers } from '@/lib/db/schema';
import { env } from '@/lib/env';
import { ApiError, validationError } from '@/lib/http/errors';
import { randomString } from '@/lib/ids';
import { newestFirst } from '@/lib/db/paging';
import { isDuplicate } from './receipt-duplicate';
import { processSingleton } from '@/lib/process-singleton';

// Receivers (the console's webhook endpoints at /ingest/{slug}) and the receipts they stored.
// Bad input throws ApiError (400/404/409) with a readable message.
// No 'server-only' marker: the console CLI (plain Node) creates receivers too.

export type TReceiver = {
  id: string;
  slug: string;
  name: string;
  secrets: string[];
  responseStatus: number;
  responseBody: string;
  responseDelayMs: number;
  createdAt: Date;
  updatedAt: Date;
};

export type TReceipt = {
  id: number;
  receiverId: string;
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: Uint8Array | null;
  bodySize: number;
  oversize: boolean;
  sourceIp: string;
  receivedAt: Date;
  messageId: string | null;
  verdict: TSignatureVerdict;
  verdictReason: string;
  duplicate: boolean;
  responseStatus: number;
};

export const MAX_RECEIVER_SECRETS = 2;
export const MAX_RESPONSE_DELAY_MS = 30_000;
export const MAX_RESPONSE_BODY_LENGTH = 64 * 1024;

/** A Standard Webhooks secret the verifier accepts: whsec_ + base64 of 1–128 bytes. */
export function isValidSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]{2,}={0,2}$/.test(secret) || secret.length > 200) return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}

const ZSecret = z.string().trim().refine(isValidSecret, { message: 'must be whsec_ followed by base64 (the webhook signing secret)' });
const ZName = z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const ZSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{2,62}$/, { message: 'must be 3-63 lower-case letters, digits or dashes, starting with a letter or digit' });

export const ZReceiverInput = z.object({
  name: ZName,
  slug: ZSlug.optional(),
  secret: z.union([z.literal('').transform(() => undefined), ZSecret]).optional(),
});

export const ZReceiverPatch = z.object({
  name: ZName.optional(),
  secrets: z.array(ZSecret).max(MAX_RECEIVER_SECRETS, { message: `at most ${MAX_RECEIVER_SECRETS} secrets (the current and the previous one)` }).optional(),
  responseStatus: z.coerce.number().int().min(200, { message: 'must be from 200 to 599' }).max(599, { message: 'must be from 200 to 599' }).optional(),
  responseBody: z.string().max(MAX_RESPONSE_BODY_LENGTH, { message: `must be at most ${MAX_RESPONSE_BODY_LENGTH} characters` }).optional(),
  responseDelayMs: z.coerce
    .number()
    .int()
    .min(0, { message: 'must be from 0 to 30000' })
    .max(MAX_RESPONSE_DELAY_MS, { message: 'must be from 0 to 30000' })
    .optional(),
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  return row;
}

export async function listReceivers(): Promise<TReceiver[]> {
  const db = await getDb();
  return db.select().from(receivers).orderBy(desc(receivers.createdAt), desc(receivers.id));
}

export async function getReceiver(idOrSlug: string): Promise<TReceiver | null> {
  const db = await getDb();
  const where = UUID.test(idOrSlug) ? eq(receivers.id, idOrSlug) : eq(receivers.slug, idOrSlug);
  const [row] = await db.select().from(receivers).where(where).limit(1);
  return row ?? null;
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

/* ------------------------------------------------------------ hot-path cache */

// The ingest route looks receivers up by slug on every request; a one-second cache keeps that off
// the database while settings changes still show within a second (on every instance).
const RECEIVER_TTL_MS = 1000;
const receiverCache = processSingleton('receiver-cache', () => new Map<string, { receiver: TReceiver | null; at: number }>());

export async function receiverForIngest(slug: string): Promise<TReceiver | null> {
  const cache = receiverCache;
  const hit = cache.get(slug);
  const now = Date.now();
  if (hit && now - hit.at < RECEIVER_TTL_MS) return hit.receiver;
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(slug)) return null;
  const receiver = await getReceiver(slug);
  if (cache.size > 10_000) cache.clear();
  // Unknown slugs are not cached: a receiver created a moment ago must answer at once.
  if (receiver) cache.set(slug, { receiver, at: now });
  return receiver;
}

function forgetCachedReceiver(slug: string): void {
  receiverCache.delete(slug);
}

/* ------------------------------------------------------------------ receipts */

type TReceiptRow = typeof receipts.$inferSelect & { duplicate: boolean };
/** Every column, and the duplicate flag derived when read. */
const RECEIPT_COLUMNS = { ...getTableColumns(receipts), duplicate: isDuplicate };

function toReceipt(row: TReceiptRow): TReceipt {
  return {
    id: row.id,
    receiverId: row.receiverId,
    method: row.method,
    path: row.path,
    query: row.query,
    headers: row.headers as [string, string][],
    body: row.body,
    bodySize: row.bodySize,
    oversize: row.oversize,
    sourceIp: row.sourceIp,
    receivedAt: row.receivedAt,
    messageId: row.messageId,
    verdict: row.verdict as TSignatureVerdict,
    verdictReason: row.verdictReason,
    duplicate: row.duplicate,
    responseStatus: row.responseStatus,
  };
}

function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A receiver's receipts, newest first, `limit` at a time; `before` is the last id of the previous
 * page. `q` searches the body (when it is text) and the headers, case-insensitively.
 */
export async function listReceipts(
  receiverId: string,
  { limit = 50, before, q }: { limit?: number; before?: number; q?: string } = {},
): Promise<{ receipts: TReceipt[]; nextBefore?: number }> {
  if (!UUID.test(receiverId)) return { receipts: [] };
  const size = Math.min(Math.max(Math.trunc(limit) || 50, 1), 200);
  const conditions: SQL[] = [eq(receipts.receiverId, receiverId)];
  if (before !== undefined && Number.isFinite(before)) conditions.push(lt(receipts.id, before));
  const term = q?.trim();
  if (term) {
    const pattern = likePattern(term);
    // convert_from fails on bytes that are not UTF-8: body_utf8 (set at insert) guards it.
    conditions.push(
      sql`((case when ${receipts.bodyUtf8} and ${receipts.body} is not null then convert_from(${receipts.body}, 'UTF8') ilike ${pattern} end) or ${receipts.headers}::text ilike ${pattern})`,
    );
  }
  const db = await getDb();
  const rows = await db
    .select(RECEIPT_COLUMNS)
    .from(receipts)
    .where(and(...conditions))
    .orderBy(...newestFirst(receipts.id))
    .limit(size + 1);
  const page = rows.slice(0, size).map(toReceipt);
  return rows.length > size ? { receipts: page, nextBefore: page[page.length - 1].id } : { receipts: page };
}

export async function getReceipt(id: number): Promise<TReceipt | null> {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const db = await getDb();
  const [row] = await db.select(RECEIPT_COLUMNS).from(receipts).where(eq(receipts.id, id)).limit(1);
  return row ? toReceipt(row) : null;
}

/** These receipts in full (headers and bodies), oldest first. */
export async function getReceipts(ids: number[]): Promise<TReceipt[]> {
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!wanted.length) return [];
  const db = await getDb();
  const rows = await db.select(RECEIPT_COLUMNS).from(receipts).where(inArray(receipts.id, wanted)).orderBy(asc(receipts.id));
  return rows.map(toReceipt);
}

/** A receipt as JSON: the body as base64 and, when it is UTF-8 text, as text too. */
export function receiptJson(r: TReceipt) {
  let bodyText: string | null = null;
  if (r.body) {
    try {
      bodyText = new TextDecoder('utf-8', { fatal: true }).decode(r.body);
    } catch {
      bodyText = null;
    }
  }
  return {
    id: r.id,
    receiverId: r.receiverId,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: r.body ? Buffer.from(r.body).toString('base64') : null,
    bodyText,
    bodySize: r.bodySize,
    oversize: r.oversize,
    sourceIp: r.sourceIp,
    receivedAt: r.receivedAt.toISOString(),
    messageId: r.messageId,
    verdict: r.verdict,
    verdictReason: r.verdictReason,
    duplicate: r.duplicate,
    responseStatus: r.responseStatus,
  };
}

export function receiverJson(r: TReceiver) {
  return { ...r, ingestUrl: ingestUrl(r.slug), createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() };
}
