import { batchWriter } from '@/lib/db/batch-writer';
import { getDb } from '@/lib/db/client';
import { receipts } from '@/lib/db/schema';
import type { TVerdict } from './verify-signature';

// Stores received requests, awaited before the receiver answers: a 2xx means the row is
// committed. Requests that arrive together are stored together (group commit: one multi-row
// INSERT, one transaction), each answered after that commit. Nothing but the row is written: whether
// a receipt is a duplicate is derived when read (receipt-duplicate.ts).

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

export type TStoredReceipt = { id: number; receivedAt: Date };

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

/** One INSERT for the whole batch; rows come back in the order of `inputs`. */
async function insertReceipts(inputs: TReceiptInput[]): Promise<TStoredReceipt[]> {
  const db = await getDb();
  const rows = await db
    .insert(receipts)
    .values(
      inputs.map((input) => ({
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
        responseStatus: input.responseStatus,
      })),
    )
    .returning({ id: receipts.id, receivedAt: receipts.receivedAt });
  // Ids come from one sequence in VALUES order; sorting makes that order explicit.
  return rows.sort((a, b) => a.id - b.id);
}

const submit = batchWriter('receipts', insertReceipts);

export function recordReceipt(input: TReceiptInput): Promise<TStoredReceipt> {
  return submit(input);
}
