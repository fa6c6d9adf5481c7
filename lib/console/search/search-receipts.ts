import { driverRows } from '@/lib/db/client';
import { excerptAround } from '@/lib/db/search-json';
import type { TPayloadQuery } from './payload-query';
import type { TSearchWindow } from './search-window';

// The receivers' side of a payload search: receipts in the window whose body_json holds the value
// (jsonb containment, receipts_body_json_idx) or the words (receipts_body_words_idx), newest first.
// A purged or erased body has no body_json, so it is never found.

export type TReceiptMatch = {
  id: number;
  receiverId: string;
  receiverName: string;
  receivedAt: Date;
  messageId: string | null;
  verdict: string;
  responseStatus: number;
  eventType: string | null;
  grantId: string | null;
  snippet: string;
};

const COLUMNS = `r.id, r.receiver_id as "receiverId", v.name as "receiverName", r.received_at as "receivedAt", r.message_id as "messageId",
  r.verdict, r.response_status as "responseStatus", r.body_json->>'type' as "eventType",
  case when r.body_json->>'type' like 'grant.%' then r.body_json#>>'{data,id}' end as "grantId"`;
const FROM = `from console.receipts r join console.receivers v on v.id = r.receiver_id
  where r.received_at >= $1 and r.received_at < $2`;
const ORDER = 'order by r.received_at desc, r.id desc limit $3';

const BY_VALUE = `select ${COLUMNS}, (r.body_json #> $5::text[])::text as matched ${FROM} and r.body_json @> $4::jsonb ${ORDER}`;
const BY_WORDS = `select ${COLUMNS}, r.body_json::text as matched ${FROM}
  and jsonb_to_tsvector('simple'::regconfig, r.body_json, '["string","numeric"]'::jsonb) @@ phraseto_tsquery('simple', $4) ${ORDER}`;

type TRow = Omit<TReceiptMatch, 'snippet' | 'receivedAt'> & { receivedAt: Date | string; id: number | string; matched: string | null };

export async function searchReceipts(query: TPayloadQuery, { since, until }: TSearchWindow, limit: number): Promise<TReceiptMatch[]> {
  let rows: TRow[];
  let needle: string;
  if (query.kind === 'payload-field') {
    const keys = query.path.split('.');
    needle = JSON.stringify(keys[keys.length - 1]);
    rows = await driverRows<TRow>(BY_VALUE, [since, until, limit, query.document, keys.slice(0, -1)]);
  } else {
    needle = query.text.split(' ')[0];
    rows = await driverRows<TRow>(BY_WORDS, [since, until, limit, query.text]);
  }
  return rows.map(({ matched, ...r }) => ({
    ...r,
    id: Number(r.id),
    receivedAt: new Date(r.receivedAt),
    snippet: excerptAround(matched ?? '', needle),
  }));
}
