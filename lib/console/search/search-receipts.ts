import { driverRows } from '@/lib/db/query';
import { searchBack } from '@/lib/db/search-back';
import { env } from '@/lib/env';
import { excerptAround, phraseMatchSql } from '@/lib/db/search-json';
import type { TPayloadQuery } from './payload-query';
import type { TSearchWindow } from './search-window';
import { receiptIdSince } from '@/lib/console/receivers/receipt-partitions';

// The receivers' side of a payload search: receipts in the window whose body_json holds the value
// (jsonb containment, receipts_body_json_idx) or the words (body_words, receipts_body_words_gin_idx;
// a phrase may run across a donor's first and last name: phraseMatchSql), newest first, within the
// search budget.
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

// Newest first in time slices within the search budget (lib/db/search-back.ts): each slice one
// query, planned on its own — the GIN index for a rare value, the time index row by row for words
// found in every row (the worst phrase), where a slice's cost is its rows.
// `id >= …` (the last parameter): the first id of the window's partitions (receipt-partitions.ts), so a slice plans only those.
const inSlice = (kind: 'field' | 'text') => `
  select ${COLUMNS}, ${MATCHED[kind]} as matched
    from console.receipts r join console.receivers v on v.id = r.receiver_id
   where r.received_at >= $1 and r.received_at < $2 and r.id >= $${kind === 'field' ? 6 : 5} and ${MATCH[kind]} order by r.received_at desc, r.id desc limit $3`;
const NTH_NEWEST = `select received_at as at from console.receipts where received_at >= $1 and received_at < $2 and id >= $4 order by received_at desc offset $3 limit 1`;

type TRow = Omit<TReceiptMatch, 'snippet' | 'receivedAt'> & { receivedAt: Date | string; id: number | string; matched: string | null };

export type TReceiptSearch = { matches: TReceiptMatch[]; partial: boolean; searchedUntil: Date | null };

/** The window's matching receipts, newest first, at most `limit`; partial when the budget ran out first. */
export async function searchReceipts(
  query: TPayloadQuery,
  { since, until }: TSearchWindow,
  limit: number,
  budgetMs = env.SEARCH_BUDGET_MS,
): Promise<TReceiptSearch> {
  const kind = query.kind === 'payload-field' ? 'field' : 'text';
  const keys = query.kind === 'payload-field' ? query.path.split('.') : [];
  const needle = query.kind === 'payload-field' ? JSON.stringify(keys[keys.length - 1]) : query.text.split(' ')[0];
  const args = query.kind === 'payload-field' ? [query.document, keys.slice(0, -1)] : [query.text];
  const found = await searchBack<TRow>({
    since,
    top: until,
    limit,
    budgetMs,
    nthNewest: async (n) => {
      const [row] = await driverRows<{ at: Date | string }>(NTH_NEWEST, [since, until, n - 1, await receiptIdSince(since)]);
      return row ? new Date(row.at) : null;
    },
    slice: async (from, to, max) => driverRows<TRow>(inSlice(kind), [from, to ?? until, max, ...args, await receiptIdSince(from)]),
  });
  const matches = found.rows.map(({ matched, ...r }) => ({
    ...r,
    id: Number(r.id),
    receivedAt: new Date(r.receivedAt),
    snippet: excerptAround(matched ?? '', needle),
  }));
  return { matches, partial: found.partial, searchedUntil: found.searchedUntil };
}
