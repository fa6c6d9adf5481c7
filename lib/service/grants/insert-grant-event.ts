import { driverRows } from '@/lib/db/client';
import { jsonbCanHold } from '@/lib/db/search-json';
import { DELIVERIES_CHANNEL } from '@/lib/service/delivery/wakeup';
import { fanoutWebhooks } from '@/lib/service/webhooks/fanout-targets';
import type { TGrantRow } from './grant-json';

// POST /v1/grants' hot path (no Idempotency-Key): the grant row, its grant.succeeded message, one
// delivery per subscribed webhook and the worker's wake-up, in one statement sent to the driver as
// fixed text with parameters — the same text for every grant, so nothing builds SQL per request
// (drizzle's builder was a tenth of the request's CPU). It is emit-event.ts's statement, shaped
// for a grant with the grant's INSERT as its guard: the same rows, the same body (the clock read
// once, truncated to the millisecond: the body's timestamp and the deliveries' due time), the same
// check of each target's row however stale the fan-out cache's list. Inside a transaction (an
// Idempotency-Key) the grant goes through emitEvent, on the caller's transaction.

const GRANT_EVENT = 'grant.succeeded';

const INSERT_GRANT_EVENT = `
  with grant_row as (
    insert into service.grants (id, account_id, connect_id, nonprofit_id, tracking_id, workflow_session_id, amount, fee_amount,
      covered_fees, status, fund_id, fund_name, first_name, last_name, email, phone, note, metadata, created_at, updated_at)
    values ($1::uuid, $2::uuid, $3::text, $4::uuid, $5::text, $6::text, $7::int, $8::int, $9::boolean, $10::text, $11::text, $12::text,
      $13::text, $14::text, $15::text, $16::text, $17::text, $18::jsonb, $19::timestamptz, $19::timestamptz)
    on conflict (tracking_id) do nothing
    returning id),
  clock as (select date_trunc('milliseconds', clock_timestamp()) as t),
  targets as (
    select id from service.webhooks
    where account_id = $2::uuid and not disabled and deleted_at is null and event_types @> array['${GRANT_EVENT}']::text[]
      and id = any($20::text[])),
  message as (
    insert into service.messages (id, event_id, account_id, event_type, payload, payload_json, tags, created_at)
    select $21::text, $22::text, $2::uuid, '${GRANT_EVENT}', body.text,
      case when $24::boolean then body.text::jsonb else 'null'::jsonb end, $25::text[], clock.t
    from clock, lateral (select '{"type":"${GRANT_EVENT}","timestamp":"' || to_char(clock.t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      || '","data":' || $23::text || '}' as text) body
    where exists (select 1 from grant_row)
    returning created_at),
  queued as (
    insert into service.deliveries (message_id, webhook_id, account_id, event_type, status, next_attempt_at, created_at)
    select $21::text, targets.id, $2::uuid, '${GRANT_EVENT}', 'pending', message.created_at, message.created_at
    from targets, message
    returning 1),
  wake as (select pg_notify('${DELIVERIES_CHANNEL}', '') from (select 1 from queued limit 1) q)
  select (select count(*) from message) as stored, (select count(*) from wake) as woken`;

/**
 * Stores the grant and queues its event, both or neither: false when its tracking id was taken
 * (nothing written; the caller draws another). `data`: the event's data, the grant's JSON.
 */
export async function insertGrantWithEvent(
  row: TGrantRow,
  event: { messageId: string; eventId: string; data: unknown; tags: string[] },
): Promise<boolean> {
  const targets = (await fanoutWebhooks(row.accountId)).filter((w) => w.eventTypes.includes(GRANT_EVENT)).map((w) => w.id);
  const data = JSON.stringify(event.data ?? null);
  const [result] = await driverRows<{ stored: number | string }>(INSERT_GRANT_EVENT, [
    row.id, row.accountId, row.connectId, row.nonprofitId, row.trackingId, row.workflowSessionId, row.amount, row.feeAmount,
    row.coveredFees, row.status, row.fundId, row.fundName, row.firstName, row.lastName, row.email, row.phone, row.note,
    JSON.stringify(row.metadata ?? {}), row.createdAt.toISOString(), targets, event.messageId, event.eventId, data,
    jsonbCanHold(data), [...new Set(event.tags)],
  ], 'insert_grant_event');
  return Number(result?.stored ?? 0) > 0;
}
