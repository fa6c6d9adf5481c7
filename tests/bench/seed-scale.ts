// SQL that stores a busy week of one account straight into the app's database: `rows` grants'
// grant.succeeded messages (ids from `from`), each delivered to every one of `webhooks` and arrived
// at that webhook's console receiver; 1 in 200 of the first webhook's arrivals failed the signature
// check although its receiver answered 200 (the receiver holds another secret for it). Spread over
// the last `spreadSeconds` (newest first), so every view's 7-day window holds all of it. The failures:
//   spread (the default, issue 42.4b): 1 in 50 (message, webhook) pairs, drawn by a hash, failed
//     after 8 attempts along a retry schedule (0 s, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h; for a
//     message newer than twice that, shrunk to end halfway from it to now), each of which reached the receiver and was answered 500 there — a receipt each, as
//     a console receiver answering 500 records them. Failed attempts and error arrivals in every
//     webhook, every receiver and every hour of the week: what the rollups, the problems view and
//     the receivers' failure counts read.
//   regular (the seed before): 1 in 40, when (grant + webhook) % 40 = 0, after 8 attempts a second
//     apart that the receiver never recorded (no receipt).

import { assertSafe, SEEDED_HEADERS } from './seed-timeline';

export type TScaleWebhook = { id: string; url: string; receiverId: string; receiverPath: string };
export const SCALE_SEEDS = ['spread', 'regular'] as const;
export type TScaleSeedKind = (typeof SCALE_SEEDS)[number];
export type TScaleSeed = {
  from: number;
  rows: number;
  accountId: string;
  webhooks: TScaleWebhook[];
  spreadSeconds: number;
  /** Default regular (tests that count rows rely on it). */ kind?: TScaleSeedKind;
  /**
   * The newest row's time (SQL), the others spread evenly over the `spreadSeconds` before it (the year section's days);
   * by default the rows from `from` on end a minute ago, spaced as if the first `from` had come before them.
   */
  newest?: string;
  /** Leaves the indexes and foreign keys in place (a day added to a big store) instead of building them again after. */
  keepIndexes?: boolean;
};

/** Seconds after a failed delivery's creation of each of its 8 attempts (spread). */
const RETRY_OFFSETS = [0, 5, 305, 2105, 9305, 27305, 63305, 99305];

export function seedScaleSql(s: TScaleSeed): string {
  assertSafe([s.accountId, ...s.webhooks.flatMap((w) => [w.id, w.url, w.receiverId, w.receiverPath])]);
  const step = s.newest ? s.spreadSeconds / Math.max(1, s.rows) : s.spreadSeconds / Math.max(1, s.from + s.rows);
  const at = s.newest ? `${s.newest} - (i - ${s.from + 1})` : `now() - interval '1 minute' - i`;
  const rebuild = s.keepIndexes ? 'false' : 'true';
  const targets = s.webhooks.map((w, k) => `('${w.id}', '${w.url}', '${w.receiverId}'::uuid, '${w.receiverPath}', ${k})`).join(',\n    ');
  const headers = SEEDED_HEADERS;
  const kind = s.kind ?? 'regular';
  const failed = kind === 'spread' ? `('x' || substr(md5(scale_seed.i || ':' || t.k), 1, 7))::bit(28)::int % 50 = 0` : `(scale_seed.i + t.k) % 40 = 0`;
  // Attempt n (1-based) of a delivery: spread, along the schedule (shrunk for the newest); regular,
  // n seconds after it was created.
  const attemptAt =
    kind === 'spread'
      ? `case when d.status = 'failed' then d.created_at + (array[${RETRY_OFFSETS.join(',')}])[n] * least(1, extract(epoch from now() - d.created_at) / ${2 * RETRY_OFFSETS[RETRY_OFFSETS.length - 1]}) * interval '1 second' else d.created_at + interval '1 second' end`
      : `d.created_at + n * interval '1 second'`;
  return `
begin;
set local maintenance_work_mem = '256MB';
create temp table scale_seed on commit drop as
  select i, 'msg_Scale' || lpad(i::text, 22, '0') as mid, ${at} * interval '${step.toFixed(6)} seconds' as at
  from generate_series(${s.from + 1}, ${s.from + s.rows}) i;
create temp table scale_targets (webhook_id text, url text, receiver_id uuid, path text, k int) on commit drop;
insert into scale_targets values
    ${targets};
analyze scale_seed;
analyze scale_targets;

-- The four tables' plain indexes are dropped while the rows go in and built once after (a sort
-- each rather than millions of scattered inserts); primary keys and unique indexes stay.
create temp table scale_indexes on commit drop as
  select schemaname, indexname, indexdef from pg_indexes i
  where schemaname in ('service', 'console') and tablename in ('messages', 'deliveries', 'attempts', 'receipts')
    and indexdef not like 'CREATE UNIQUE %'
    and not exists (select 1 from pg_constraint c where c.conname = i.indexname) and ${rebuild};
do $$ declare r record; begin
  for r in select * from scale_indexes loop execute format('drop index %I.%I', r.schemaname, r.indexname); end loop;
end $$;
-- Their foreign keys likewise: each checked row by row is a lookup per inserted row (most of an
-- insert's time on PGlite); added back once after, each checked by one join over the whole table.
-- Only the keys themselves (conparentid 0): a key to a partitioned table (deliveries → messages, 0040) has
-- a clone for each partition it references, dropped with it and made again when it is added back.
create temp table scale_fks on commit drop as
  select n.nspname as schemaname, c.relname as tablename, k.conname, pg_get_constraintdef(k.oid) as def
  from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
  where k.contype = 'f' and k.conparentid = 0 and n.nspname in ('service', 'console') and c.relname in ('messages', 'deliveries', 'attempts', 'receipts') and ${rebuild};
do $$ declare r record; begin
  for r in select * from scale_fks loop execute format('alter table %I.%I drop constraint %I', r.schemaname, r.tablename, r.conname); end loop;
end $$;

-- payload_json and body_json as the app writes them at insert (their triggers fill the words): a
-- row without them would be left to the background backfill, which would then run through every
-- reading of the bench.
insert into service.messages (id, account_id, event_id, event_type, payload, payload_json, tags, created_at)
select mid, '${s.accountId}', 'evt_Scale' || lpad(i::text, 22, '0'), 'grant.succeeded', p, p::jsonb,
       array['grant:' || md5(mid)::uuid, 'tracking:GS-' || lpad(i::text, 8, '0'), 'donor:scale' || i || '@example.org'],
       at
from (select mid, i, at,
        json_build_object('type', 'grant.succeeded', 'timestamp', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', json_build_object('id', md5(mid)::uuid, 'trackingId', 'GS-' || lpad(i::text, 8, '0'), 'amount', 1000 + (i % 500) * 100,
            'status', 'Initiated', 'firstName', 'Donor', 'lastName', 'Number ' || i, 'email', 'scale' || i || '@example.org'))::text as p
      from scale_seed) s;

insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at, updated_at)
select mid, t.webhook_id, '${s.accountId}', 'grant.succeeded',
       case when failed then 'failed' else 'success' end,
       case when failed then 8 else 1 end, case when failed then 8 else 1 end,
       null, at, at + interval '1 minute'
from (select scale_seed.*, t.webhook_id, t.k, ${failed} as failed from scale_seed cross join scale_targets t) t;

-- Attempt ids as the messages': 'Scale' then 22 characters, which as a KSUID names a second in 2121, so the lookups by
-- id search every partition (lib/ids.ts idWindow). 27 hex characters named a second in January 2026 one time in 124
-- ('atmpt_38…', 'atmpt_39…'): looked for in that hour alone, such an attempt was not found by its id (export-stream.test).
insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
select 'atmpt_Scale' || substr(md5(d.id::text), 1, 17) || lpad(n::text, 5, '0'), d.id, d.message_id, d.webhook_id, d.account_id, t.url,
       ${attemptAt},
       case when d.status = 'failed' then 'failed' else 'success' end,
       case when d.status = 'failed' then 500 else 200 end,
       20 + (n * 7 + length(d.message_id)) % 50,
       case when d.status = 'failed' then 'database down' else '' end,
       'scheduled'
from service.deliveries d
join scale_seed on scale_seed.mid = d.message_id
join scale_targets t on t.webhook_id = d.webhook_id
cross join lateral generate_series(1, d.attempt_count) n;

-- An arrival for each attempt the receiver recorded: a success's (regular: only those), each failed
-- attempt answered 500 (spread). Its id is the sequence's, or, when a closed slot of console.receipts spans its arrival
-- (the year section's past days: seed-year.ts receiptSlotsSql), in that slot (its first id + the sequence's id in its own).
-- body_words as its trigger would store them: a receipt's body is its message's payload, so its words
-- are the message's (one tsvector per message rather than one per receipt).
alter table console.receipts disable trigger receipts_body_words;
insert into console.receipts (id, receiver_id, method, path, query, headers, body, body_utf8, body_size, oversize, source_ip, received_at, message_id, verdict, verdict_reason, response_status, host, body_json, body_words)
select coalesce((select s.first_id + nextval('console.receipts_id_seq') % 10000000000 from console.receipt_partitions s
                  where a.created_at + interval '200 milliseconds' >= s.opened_at and a.created_at + interval '200 milliseconds' < s.closed_at),
                nextval('console.receipts_id_seq')),
       t.receiver_id, 'POST', t.path, '', replace('${headers}', 'MSG', a.message_id)::jsonb,
       convert_to(m.payload, 'UTF8'), true, octet_length(m.payload), false, '127.0.0.1',
       a.created_at + interval '200 milliseconds', a.message_id,
       case when t.k = 0 and scale_seed.i % 200 = 0 and a.status = 'success' then 'invalid' else 'valid' end,
       case when t.k = 0 and scale_seed.i % 200 = 0 and a.status = 'success' then 'No signature matched.' else 'Verified with the webhook-* headers and secret 1.' end,
       a.response_status_code, '127.0.0.1', m.payload_json, m.payload_words
from service.attempts a
join scale_seed on scale_seed.mid = a.message_id
join scale_targets t on t.webhook_id = a.webhook_id
join service.messages m on m.id = a.message_id
where ${kind === 'spread' ? 'true' : `a.status = 'success'`};
alter table console.receipts enable trigger receipts_body_words;

do $$ declare r record; begin
  -- A partitioned table's index is defined ON ONLY the parent: built so, it would leave every partition without it.
  for r in select * from scale_indexes loop execute replace(r.indexdef, ' ON ONLY ', ' ON '); end loop;
  for r in select * from scale_fks loop execute format('alter table %I.%I add constraint %I %s', r.schemaname, r.tablename, r.conname, r.def); end loop;
end $$;
commit;
select (select count(*) from service.messages)::int as messages, (select count(*) from service.deliveries)::int as deliveries,
       (select count(*) from service.attempts)::int as attempts, (select count(*) from console.receipts)::int as receipts;
`;
}
