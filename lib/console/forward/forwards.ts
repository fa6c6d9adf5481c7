import { desc, inArray } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { forwards } from '@/lib/db/schema/console';
import type { TForwardMode } from './forward-request';

// A forward as pages and JSON show it, and the forwards of some receipts, newest first.

export type TForward = {
  id: number;
  receiptId: number;
  at: string;
  actor: string;
  url: string;
  mode: TForwardMode;
  method: string;
  sentHeaders: [string, string][];
  /** 0: no reply (see `error`). */
  status: number;
  responseHeaders: [string, string][];
  /** The reply body as text when it is UTF-8, else null (see `responseBodyBase64`); null too once purged. */
  responseBody: string | null;
  responseBodyBase64: string | null;
  responseSize: number;
  responseTruncated: boolean;
  elapsedMs: number;
  error: string | null;
  /** When retention or an erasure removed the reply body. */
  bodyPurgedAt: string | null;
};

type TRow = typeof forwards.$inferSelect;

export function toForward(row: TRow): TForward {
  let text: string | null = null;
  if (row.responseBody) {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(row.responseBody);
    } catch {
      text = null;
    }
  }
  return {
    id: row.id,
    receiptId: row.receiptId,
    at: row.at.toISOString(),
    actor: row.actor,
    url: row.url,
    mode: row.mode as TForwardMode,
    method: row.method,
    sentHeaders: row.sentHeaders as [string, string][],
    status: row.status,
    responseHeaders: row.responseHeaders as [string, string][],
    responseBody: text,
    responseBodyBase64: row.responseBody ? Buffer.from(row.responseBody).toString('base64') : null,
    responseSize: row.responseSize,
    responseTruncated: row.responseTruncated,
    elapsedMs: row.elapsedMs,
    error: row.error,
    bodyPurgedAt: row.bodyPurgedAt?.toISOString() ?? null,
  };
}

const MAX_LISTED = 50;

/** The newest forwards of these receipts (at most 50 in all). */
export async function forwardsOf(receiptIds: number[]): Promise<TForward[]> {
  const ids = [...new Set(receiptIds.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!ids.length) return [];
  const db = await getDb();
  const rows = await db.select().from(forwards).where(inArray(forwards.receiptId, ids)).orderBy(desc(forwards.id)).limit(MAX_LISTED);
  return rows.map(toForward);
}
