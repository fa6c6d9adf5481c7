// SQL that stores a long history directly in the app's database, as months of traffic would have
// left it: `rows` grant.succeeded messages of the account, each delivered to webhook B and every
// fifth also to webhook C; 1 in 40 failed after 8 attempts (500 "database down"), the rest
// succeeded at the first attempt and left a receipt at B's receiver. All of it older than webhook
// A's messages, and all terminal, so the worker has nothing to do. The caller then runs VACUUM
// ANALYZE: a database that grew over months has statistics and visibility maps, and no autovacuum
// of a fresh bulk load running beside the measurement.

export type TSeed = {
  rows: number;
  accountId: string;
  webhookB: string;
  webhookC: string;
  receiverId: string;
  receiverPath: string;
};

const SAFE = /^[\w/.:-]+$/;

/** Refuses a value that could not sit in the seeding SQL as it is. */
export function assertSafe(values: string[]): void {
  for (const v of values) if (!SAFE.test(v)) throw new Error(`unexpected characters in ${JSON.stringify(v)}`);
}

/** A seeded receipt's headers as stored (jsonb), its message id written MSG for a replace() in SQL. */
export const SEEDED_HEADERS = JSON.stringify([
  ['Host', '127.0.0.1'],
  ['Content-Type', 'application/json'],
  ['User-Agent', 'GivingConnect-Webhooks/1.0'],
  ['webhook-id', 'MSG'],
  ['webhook-timestamp', '0'],
  ['webhook-signature', 'v1,bench'],
]);

export function seedTimelineSql(s: TSeed): string {
  assertSafe([s.accountId, s.webhookB, s.webhookC, s.receiverId, s.receiverPath]);
  const rows = Math.floor(s.rows);
  const failed = `(i % 40 = 0)`;
  const headers = SEEDED_HEADERS;
  return `
begin;
create temp table bench_seed on commit drop as
  select i,
         'msg_Bench' || lpad(i::text, 22, '0') as mid,
         now() - interval '1 day' - i * interval '1 second' as at
  from generate_series(1, ${rows}) i;

insert into service.messages (id, account_id, event_id, event_type, payload, tags, created_at)
select mid, '${s.accountId}', 'evt_Bench' || lpad(i::text, 22, '0'), 'grant.succeeded',
       json_build_object(
         'type', 'grant.succeeded',
         'timestamp', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'data', json_build_object(
           'id', md5(mid)::uuid, 'trackingId', 'GC-' || lpad(i::text, 8, '0'), 'connectId', 'test_Bench000000000000000000000',
           'nonprofitId', md5('np' || (i % 300))::uuid, 'amount', 1000 + (i % 500) * 100, 'feeAmount', 30 + (i % 500) * 3,
           'coveredFees', i % 3 = 0, 'status', 'Initiated', 'fundId', 'fidelity-charitable', 'fundName', 'Fidelity Charitable',
           'firstName', 'Donor', 'lastName', 'Number ' || i, 'email', 'donor' || (i % 5000) || '@example.org', 'phone', null,
           'note', repeat('a gift ', 30), 'metadata', json_build_object('campaign', 'spring-' || (i % 12)),
           'createdAt', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'updatedAt', to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::text,
       array['grant:' || md5(mid)::uuid, 'tracking:GC-' || lpad(i::text, 8, '0'), 'donor:donor' || (i % 5000) || '@example.org', 'connect:test_Bench000000000000000000000'],
       at
from bench_seed;

insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, attempt_count, scheduled_attempt_count, next_attempt_at, created_at, updated_at)
select mid, w, '${s.accountId}', 'grant.succeeded',
       case when ${failed} then 'failed' else 'success' end,
       case when ${failed} then 8 else 1 end, case when ${failed} then 8 else 1 end,
       null, at, at + interval '1 minute'
from bench_seed
cross join lateral (select '${s.webhookB}' as w union all select '${s.webhookC}' where i % 5 = 0) targets;

-- 'Bench' first: as a KSUID such an id names a second in 2057, so lookups by it search every partition (seed-scale.ts says why).
insert into service.attempts (id, delivery_id, message_id, webhook_id, account_id, url, created_at, status, response_status_code, response_duration_ms, response, trigger_type)
select 'atmpt_Bench' || substr(md5(d.id::text), 1, 17) || lpad(k::text, 5, '0'), d.id, d.message_id, d.webhook_id, d.account_id, w.url,
       d.created_at + k * interval '1 second',
       case when d.status = 'failed' then 'failed' else 'success' end,
       case when d.status = 'failed' then 500 else 200 end,
       20 + (k * 7) % 50,
       case when d.status = 'failed' then 'database down' else '' end,
       'scheduled'
from service.deliveries d
join service.webhooks w on w.id = d.webhook_id
cross join lateral generate_series(1, d.attempt_count) k
where d.webhook_id in ('${s.webhookB}', '${s.webhookC}');

insert into console.receipts (receiver_id, method, path, query, headers, body, body_utf8, body_size, oversize, source_ip, received_at, message_id, verdict, verdict_reason, response_status)
select '${s.receiverId}', 'POST', '${s.receiverPath}', '', replace('${headers}', 'MSG', d.message_id)::jsonb,
       convert_to(m.payload, 'UTF8'), true, octet_length(m.payload), false, '127.0.0.1',
       d.created_at + interval '1 second', d.message_id, 'valid', 'Verified with the webhook-* headers and secret 1.', 200
from service.deliveries d
join service.messages m on m.id = d.message_id
where d.webhook_id = '${s.webhookB}' and d.status = 'success';
commit;
select (select count(*) from service.messages)::int as messages, (select count(*) from service.deliveries)::int as deliveries,
       (select count(*) from service.attempts)::int as attempts, (select count(*) from console.receipts)::int as receipts;
`;
}
