import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { receipts } from '@/lib/db/schema';
import type { TVerdict } from './verify-signature';

// Stores one received request in a single INSERT, awaited before the receiver answers: a 2xx
// means the row is committed. The duplicate flag is computed by the same statement: this message
// id already reached this receiver AND was acknowledged with a 2xx. A retry after the receiver
// answered an error is the sender doing its job, not a duplicate.

export type TReceiptInput = {
  receiverId: string;
  method: string;
  path: string;
  query: string;
  headers: [string, string][];
  body: Buffer | null;
  bodySize: number;
  oversize: boolean;
  sourceIp: string;
  messageId: string | null;
  verdict: TVerdict;
  responseStatus: number;
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether PostgreSQL can read the bytes as text (valid UTF-8 and no NUL). */
function isText(body: Buffer): boolean {
  if (body.includes(0)) return false;
  try {
    utf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

export async function recordReceipt(input: TReceiptInput): Promise<{ id: number; duplicate: boolean; receivedAt: Date }> {
  const db = await getDb();
  const duplicate = input.messageId
    ? sql<boolean>`exists (select 1 from ${receipts} where ${receipts.receiverId} = ${input.receiverId} and ${receipts.messageId} = ${input.messageId} and ${receipts.responseStatus} between 200 and 299)`
    : false;
  const [row] = await db
    .insert(receipts)
    .values({
      receiverId: input.receiverId,
      method: input.method,
      path: input.path,
      query: input.query,
      headers: input.headers,
      body: input.body,
      bodyUtf8: input.body ? isText(input.body) : false,
      bodySize: input.bodySize,
      oversize: input.oversize,
      sourceIp: input.sourceIp,
      messageId: input.messageId,
      verdict: input.verdict.verdict,
      verdictReason: input.verdict.reason,
      duplicate,
      responseStatus: input.responseStatus,
    })
    .returning({ id: receipts.id, duplicate: receipts.duplicate, receivedAt: receipts.receivedAt });
  return row;
}
