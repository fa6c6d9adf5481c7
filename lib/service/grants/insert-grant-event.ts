import { fillPlaceholders, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { driverRows } from '@/lib/db/query';
import { jsonbCanHold } from '@/lib/db/search-json';
import { enqueueEvent } from '@/lib/service/delivery/enqueue';
import { wakeWorkers } from '@/lib/service/delivery/wake-workers';
import { fanoutWebhooks } from '@/lib/service/webhooks/fanout-targets';
import { currentTraceparent } from '@/lib/telemetry/spans';
import type { TGrantRow } from './grant-json';

// POST /v1/grants' hot path (no Idempotency-Key): the grant row, its grant.succeeded message and one
// delivery per subscribed webhook in one statement sent to the driver as fixed text with parameters —
// the same text for every grant, made once here from enqueue.ts's statement with placeholders
// (drizzle's builder per request was a tenth of the request's CPU), with the grant's INSERT as its
// guard — and the workers' wake-up once it has committed (wake-workers.ts: a NOTIFY in the statement
// put every grant's commit in one line). Inside a transaction (an Idempotency-Key) the grant goes
// through emitEvent, on the caller's transaction: the same statement with values.

const GRANT_EVENT = 'grant.succeeded';
const $ = sql.placeholder;

const STATEMENT = new PgDialect().sqlToQuery(
  enqueueEvent({
    guard: sql`insert into service.grants (id, account_id, connect_id, nonprofit_id, tracking_id, workflow_session_id, amount, fee_amount,
        covered_fees, status, fund_id, fund_name, first_name, last_name, email, phone, note, metadata, created_at, updated_at)
      values (${$('id')}::uuid, ${$('accountId')}::uuid, ${$('connectId')}::text, ${$('nonprofitId')}::uuid, ${$('trackingId')}::text,
        ${$('workflowSessionId')}::text, ${$('amount')}::int, ${$('feeAmount')}::int, ${$('coveredFees')}::boolean, ${$('status')}::text,
        ${$('fundId')}::text, ${$('fundName')}::text, ${$('firstName')}::text, ${$('lastName')}::text, ${$('email')}::text, ${$('phone')}::text,
        ${$('note')}::text, ${$('metadata')}::jsonb, ${$('createdAt')}::timestamptz, ${$('createdAt')}::timestamptz)
      on conflict (tracking_id) do nothing
      returning id`,
    accountId: $('accountId'),
    eventType: GRANT_EVENT,
    messageId: $('messageId'),
    eventId: $('eventId'),
    data: $('data'),
    searchable: $('searchable'),
    tags: $('tags'),
    to: { among: $('targets') },
    traceParent: $('traceParent'),
  }),
);

/**
 * Stores the grant and queues its event, both or neither: false when its tracking id was taken
 * (nothing written; the caller draws another). `data`: the event's data, the grant's JSON.
 */
export async function insertGrantWithEvent(row: TGrantRow, event: { messageId: string; eventId: string; data: unknown; tags: string[] }): Promise<boolean> {
  const targets = (await fanoutWebhooks(row.accountId)).filter((w) => w.eventTypes.includes(GRANT_EVENT)).map((w) => w.id);
  const data = JSON.stringify(event.data ?? null);
  const params = fillPlaceholders(STATEMENT.params, {
    ...row,
    metadata: JSON.stringify(row.metadata ?? {}),
    createdAt: row.createdAt.toISOString(),
    messageId: event.messageId,
    eventId: event.eventId,
    data,
    searchable: jsonbCanHold(data),
    tags: [...new Set(event.tags)],
    targets,
    traceParent: currentTraceparent(),
  });
  const [result] = await driverRows<{ stored: number | string; queued: number | string }>(STATEMENT.sql, params, 'insert_grant_event');
  // Committed: its NOTIFY follows, outside the grants' line (wake-workers.ts).
  if (Number(result?.queued ?? 0) > 0) wakeWorkers();
  return Number(result?.stored ?? 0) > 0;
}
