import { driverRows } from '@/lib/db/client';
import { excerptAround, phraseMatchSql } from '@/lib/db/search-json';
import type { TPayloadQuery } from './payload-query';
import type { TSearchWindow } from './search-window';

// The receivers' side of a payload search: receipts in the window whose body_json holds the value
// (jsonb containment, receipts_body_json_idx) or the words (body_words, receipts_body_words_gin_idx;
// a phrase may run across a donor's first and last name: phraseMatchSql),
// newest first.
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
const MATCHED = { field: '(r.body_json #> $5::text[])::text', text: 'r.body_json::text' };
const MATCH = {
  field: 'r.body_json @> $4::jsonb',
  text: phraseMatchSql('r.body_words', 'r.body_json', '$4'),
};

// Two plans, because the planner cannot tell a common value from a rare one (jsonb containment has
// no statistics; a phrase is re-checked row by row): first the window's newest RECENT receipts,
// tested one by one (a common value fills the page here, in the order of receipts_received_at_idx);
// then, when they did not fill it, the GIN index over the whole window (a rare value: few candidates).
export const RECENT = 2000;
const recentFirst = (kind: 'field' | 'text') => `
  select ${COLUMNS}, ${MATCHED[kind]} as matched
    from (select id, receiver_id, received_at, message_id, verdict, response_status, body_json, body_words from console.receipts
           where received_at >= $1 and received_at < $2 order by received_at desc limit ${RECENT}) r
    join console.receivers v on v.id = r.receiver_id
   where ${MATCH[kind]} order by r.received_at desc, r.id desc limit $3`;
const byIndex = (kind: 'field' | 'text') => `
  select ${COLUMNS}, ${MATCHED[kind]} as matched
    from console.receipts r join console.receivers v on v.id = r.receiver_id
   where r.received_at >= $1 and r.received_at < $2 and ${MATCH[kind]} order by r.received_at desc, r.id desc limit $3`;
const WINDOW_HOLDS_MORE = `select exists (select 1 from console.receipts where received_at >= $1 and received_at < $2 offset ${RECENT}) as more`;

type TRow = Omit<TReceiptMatch, 'snippet' | 'receivedAt'> & { receivedAt: Date | string; id: number | string; matched: string | null };

export async function searchReceipts(query: TPayloadQuery, { since, until }: TSearchWindow, limit: number): Promise<TReceiptMatch[]> {
  const kind = query.kind === 'payload-field' ? 'field' : 'text';
  const keys = query.kind === 'payload-field' ? query.path.split('.') : [];
  const needle = query.kind === 'payload-field' ? JSON.stringify(keys[keys.length - 1]) : query.text.split(' ')[0];
  const params = query.kind === 'payload-field' ? [since, until, limit, query.document, keys.slice(0, -1)] : [since, until, limit, query.text];
  let rows = await driverRows<TRow>(recentFirst(kind), params);
  if (rows.length < limit) {
    const [{ more }] = await driverRows<{ more: boolean }>(WINDOW_HOLDS_MORE, [since, until]);
    if (more) rows = await driverRows<TRow>(byIndex(kind), params);
  }
  return rows.map(({ matched, ...r }) => ({
    ...r,
    id: Number(r.id),
    receivedAt: new Date(r.receivedAt),
    snippet: excerptAround(matched ?? '', needle),
  }));
}
