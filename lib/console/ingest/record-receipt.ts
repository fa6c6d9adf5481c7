import { groupCommitWriter } from '@/lib/db/group-commit';
import { driverRows } from '@/lib/db/query';
import { anyListener } from '@/lib/db/listeners';
import { searchableJson } from '@/lib/db/search-json';
import { RECEIPTS_CHANNEL } from '../listen/receipt-channel';
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
  /** The address the request came to (lib/http/source-address.ts arrivalHost). */
  host: string;
};

/** What the answer needs of the stored row: its id (x-receipt-id). */
export type TStoredReceipt = { id: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as text when PostgreSQL can read them so (valid UTF-8 and no NUL), else null. */
function asText(body: Buffer): string | null {
  if (body.includes(0)) return null;
  try {
    return utf8.decode(body);
  } catch {
    return null;
  }
}

// The receipt's columns, in the order of each row's parameters. The statement goes to the driver
// as text (one per batch size, made once): drizzle's builder cost about an eighth of the ingest
// path's CPU for a statement whose shape never changes.
const COLUMNS = [
  'receiver_id',
  'method',
  'path',
  'query',
  'headers',
  'body',
  'body_utf8',
  'body_size',
  'oversize',
  'source_ip',
  'message_id',
  'verdict',
  'verdict_reason',
  'response_status',
  'host',
  'body_json',
];
// body_json is sent as text and cast by the statement (lib/db/search-json.ts decides what it holds).
const placeholder = (column: string, n: number) => (column === 'body_json' ? `$${n}::jsonb` : `$${n}`);
const insertTexts = new Map<string, string>();
function insertText(rows: number, notify: boolean): string {
  const key = `${rows}${notify ? '+notify' : ''}`;
  let text = insertTexts.get(key);
  if (!text) {
    const values = Array.from({ length: rows }, (_, r) => `(${COLUMNS.map((column, c) => placeholder(column, r * COLUMNS.length + c + 1)).join(', ')})`);
    const insert = `insert into console.receipts (${COLUMNS.join(', ')}) values ${values.join(', ')}`;
    // While a receipt stream listens (in any process), the commit also tells the streams which
    // receivers got new receipts (pg_notify is delivered at commit; lib/console/listen/receipt-feed.ts
    // listens); while none does, the NOTIFY is left out (lib/db/listeners.ts).
    text = notify
      ? `with ins as (${insert} returning id, receiver_id), ` +
        // (a payload is at most 8000 bytes: past 100 receivers an empty one, which wakes every stream).
        `woke as (select pg_notify('${RECEIPTS_CHANNEL}', case when count(distinct receiver_id) <= 100 then string_agg(distinct receiver_id::text, ',') else '' end) from ins) ` +
        'select id from ins, woke'
      : `${insert} returning id`;
    insertTexts.set(key, text);
  }
  return text;
}

/** One INSERT for the whole batch; rows come back in the order of `inputs`. */
async function insertReceipts(inputs: TReceiptInput[]): Promise<TStoredReceipt[]> {
  const params = inputs.flatMap((i) => {
    const text = i.body ? asText(i.body) : null;
    return [
      i.receiverId,
      i.method,
      i.path,
      i.query,
      JSON.stringify(i.headers),
      i.body,
      text !== null,
      i.bodySize,
      i.oversize,
      i.sourceIp,
      i.messageId,
      i.verdict.verdict,
      i.verdict.reason,
      i.responseStatus,
      i.host,
      i.body ? searchableJson(text) : null,
    ];
  });
  const notify = await anyListener(RECEIPTS_CHANNEL);
  const rows = await driverRows<{ id: number | string }>(insertText(inputs.length, notify), params);
  // Ids come from one sequence in VALUES order; sorting makes that order explicit.
  return rows.map((r) => ({ id: Number(r.id) })).sort((a, b) => a.id - b.id);
}

// One batch at a time on PostgreSQL too, as the bench's floor writes (issue 42): what arrives while
// a batch commits joins the next one. Four side by side made smaller batches: 0.05–0.08 ms more CPU
// per receipt (app and store) in the bench's ingest section on PostgreSQL, and a worse p99.
const submit = groupCommitWriter('receipts', insertReceipts, { postgresInFlight: 1 });

export function recordReceipt(input: TReceiptInput): Promise<TStoredReceipt> {
  return submit(input);
}
