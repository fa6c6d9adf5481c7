import { driverRows } from '@/lib/db/query';
import { startBatchLoop, stopBatchLoop } from '@/lib/db/batch-loop';
import { searchableJson } from '@/lib/db/search-json';

// Messages stored before migration 0019 get their payload_json here, a batch at a time beside the
// worker (messages_payload_json_pending_idx finds them; emitEvent always sets the column). A purge
// or erasure sets it to 'null' itself, so "still NULL" keeps this from indexing a tombstone.

const NAME = 'message payload search backfill';
const BATCH = 500;

const PENDING = 'select id, payload from service.messages where payload_json is null order by id limit $1';
const FILL = `update service.messages m set payload_json = v.j::jsonb
  from unnest($1::text[], $2::text[]) v(id, j) where m.id = v.id and m.payload_json is null`;

// Messages whose payload_json was made before migration 0020: writing the column again has its
// trigger store the words (messages_payload_words_pending_idx finds them).
const WORDS = `with batch as (select id from service.messages where payload_words is null and payload_json is not null order by id limit $1),
  done as (update service.messages m set payload_json = m.payload_json from batch where m.id = batch.id and m.payload_words is null returning 1)
  select (select count(*) from batch)::int as n, (select count(*) from done)::int as done`;

/** One batch; how many messages it looked at (0: none left). */
export async function backfillPayloadJsonOnce(batch = BATCH): Promise<number> {
  const rows = await driverRows<{ id: string; payload: string }>(PENDING, [batch]);
  if (!rows.length) return (await driverRows<{ n: number }>(WORDS, [batch]))[0].n;
  await driverRows(FILL, [rows.map((r) => r.id), rows.map((r) => searchableJson(r.payload))]);
  return rows.length;
}

export const startPayloadJsonBackfill = () =>
  startBatchLoop(
    NAME,
    () => backfillPayloadJsonOnce(),
    (total) => `${NAME}: ${total} earlier rows made searchable`,
  );
export const stopPayloadJsonBackfill = () => stopBatchLoop(NAME);
