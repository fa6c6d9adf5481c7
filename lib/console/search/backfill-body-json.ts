import { driverRows } from '@/lib/db/query';
import { startBatchLoop, stopBatchLoop } from '@/lib/db/batch-loop';
import { searchableJson } from '@/lib/db/search-json';

// Receipts stored before migration 0019 get their body_json here, a batch at a time beside the
// retention purge (receipts_body_json_pending_idx finds them; inserts always set the column, so the
// index empties for good). The body is parsed here rather than in SQL: a cast to jsonb would fail
// the batch on the first body that is not JSON.

const NAME = 'receipt body search backfill';
const BATCH = 500;

const PENDING = `select id, case when body_utf8 then convert_from(body, 'UTF8') end as text
  from console.receipts where body_json is null and body is not null order by id limit $1`;
// "still pending" guards a purge or erasure that took the body meanwhile (it left body_json NULL).
const FILL = `update console.receipts r set body_json = v.j::jsonb
  from unnest($1::bigint[], $2::text[]) v(id, j) where r.id = v.id and r.body_json is null and r.body is not null`;

// Receipts whose body_json was made before migration 0020: writing the column again has its
// trigger store the words (receipts_body_words_pending_idx finds them).
const WORDS = `with batch as (select id from console.receipts where body_words is null and body_json is not null order by id limit $1),
  done as (update console.receipts r set body_json = r.body_json from batch where r.id = batch.id and r.body_words is null returning 1)
  select (select count(*) from batch)::int as n, (select count(*) from done)::int as done`;

/** One batch; how many receipts it looked at (0: none left). */
export async function backfillBodyJsonOnce(batch = BATCH): Promise<number> {
  const rows = await driverRows<{ id: string | number; text: string | null }>(PENDING, [batch]);
  if (!rows.length) return (await driverRows<{ n: number }>(WORDS, [batch]))[0].n;
  await driverRows(FILL, [rows.map((r) => String(r.id)), rows.map((r) => searchableJson(r.text))]);
  return rows.length;
}

export const startBodyJsonBackfill = () =>
  startBatchLoop(
    NAME,
    () => backfillBodyJsonOnce(),
    (total) => `${NAME}: ${total} earlier rows made searchable`,
  );
export const stopBodyJsonBackfill = () => stopBatchLoop(NAME);
