import { z } from 'zod';
import { keysetStream } from '@/lib/http/keyset-stream';
import { getDb } from '@/lib/db/client';
import { queryRows, sql } from '@/lib/db/query';
import { parseQuery } from '@/lib/http/query';
import { ZTimestamp } from '@/lib/service/webhooks/schemas';
import type { TCursor } from '@/lib/http/cursor';
import type { TGrantStatus } from './grant-json';

// EXT GET /v1/grants/deliveries: the account's grants made in [after, before), oldest first, as
// NDJSON — each line a grant (its nonprofit, amount and fee, status, fund, donor) with its grant.succeeded message and
// that message's delivery to every webhook it was queued for (status, attempts, the newest
// attempt's response code). What a daily reconciliation reads: one request for the day instead of
// a grant list per Connect and a message list per webhook. Read in keyset pages of STREAM_PAGE
// messages over messages(account_id, created_at) (the grant found by its message's grant: tag,
// its deliveries by the (message_id, webhook_id) index), each page only once the reader has taken
// the one before, every line's JSON written by the database.

export const GRANT_STREAM_PAGE = 1000;
/** How far a grant's message may be stored after the grant row's own time (the same statement; its clock is read later). */
const MESSAGE_SLACK = "interval '1 minute'";
const MAX_RANGE_MS = 31 * 24 * 3600_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ZGrantDeliveryFilters = z
  .object({
    after: ZTimestamp.meta({ description: 'Grants made at or after this time (inclusive).' }),
    before: ZTimestamp.meta({ description: 'Grants made before this time (exclusive); at most 31 days after `after`.' }),
    nonprofit: z
      .string()
      .trim()
      .refine((v) => UUID.test(v) || /^\d{9}$/.test(v.replace('-', '')), { message: 'must be a nonprofit id (UUID) or a 9-digit EIN' })
      .optional()
      .meta({ description: 'Only the grants to this nonprofit: its id, or its EIN.' }),
  })
  .refine((f) => Date.parse(f.before) > Date.parse(f.after), { path: ['before'], message: 'must be after `after`' })
  .refine((f) => Date.parse(f.before) - Date.parse(f.after) <= MAX_RANGE_MS, { path: ['before'], message: 'must be at most 31 days after `after`' });
export type TGrantDeliveryFilters = z.output<typeof ZGrantDeliveryFilters>;

export function parseGrantDeliveryFilters(searchParams: URLSearchParams): TGrantDeliveryFilters {
  return parseQuery(searchParams, ZGrantDeliveryFilters);
}

/** One line of the stream. */
export type TGrantDeliveryJson = {
  grantId: string;
  trackingId: string;
  createdAt: string;
  amount: number;
  feeAmount: number;
  coveredFees: boolean;
  status: TGrantStatus;
  fundId: string;
  fundName: string;
  nonprofitId: string;
  ein: string;
  nonprofitName: string;
  connectId: string;
  donor: { firstName: string; lastName: string; email: string };
  messageId: string;
  messageTimestamp: string;
  deliveries: { webhookId: string; status: 'pending' | 'sending' | 'success' | 'failed'; attemptCount: number; lastResponseStatusCode: number | null }[];
};

const iso = (column: ReturnType<typeof sql>) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

async function readPage(accountId: string, f: TGrantDeliveryFilters, after: TCursor | null): Promise<{ text: string; last: TCursor | null }> {
  const np = f.nonprofit;
  const nonprofitWhere = !np ? sql`true` : UUID.test(np) ? sql`g.nonprofit_id = ${np}::uuid` : sql`n.ein = ${np.replace('-', '')}`;
  const db = await getDb();
  // JIT off: the planner's estimate of a page (a subquery per delivery) passes jit_above_cost, and
  // compiling the page's expressions cost PostgreSQL ~0.1 s a page, more than it saved.
  const rows = await db.transaction(async (tx) => {
    await tx.execute(sql`set local jit = off`);
    return queryRows<{ t: string; id: string; line: string }>(
      tx,
      sql`
      select m.created_at::text as t, m.id,
        json_build_object(
          'grantId', g.id, 'trackingId', g.tracking_id, 'createdAt', ${iso(sql`g.created_at`)}, 'amount', g.amount,
          'feeAmount', g.fee_amount, 'coveredFees', g.covered_fees, 'status', g.status, 'fundId', g.fund_id, 'fundName', g.fund_name,
          'nonprofitId', g.nonprofit_id, 'ein', n.ein, 'nonprofitName', coalesce(n.preferred_name, n.name), 'connectId', g.connect_id,
          'donor', json_build_object('firstName', g.first_name, 'lastName', g.last_name, 'email', g.email),
          'messageId', m.id, 'messageTimestamp', ${iso(sql`m.created_at`)},
          'deliveries', coalesce((
            select json_agg(json_build_object('webhookId', d.webhook_id, 'status', d.status, 'attemptCount', d.attempt_count,
                'lastResponseStatusCode', (select a.response_status_code from service.attempts a
                  where a.webhook_id = d.webhook_id and a.message_id = d.message_id order by a.created_at desc nulls last, a.id desc nulls last limit 1))
              order by d.webhook_id)
            from service.deliveries d where d.message_id = m.id and d.created_at = m.created_at), '[]'::json)
        )::text as line
      from service.messages m
      join service.grants g on g.id = (select substr(tag, 7)::uuid from unnest(m.tags) tag where tag like 'grant:%' limit 1)
      join service.nonprofits n on n.id = g.nonprofit_id
      where m.account_id = ${accountId}::uuid and m.event_type = 'grant.succeeded'
        and m.created_at >= ${f.after}::timestamptz and m.created_at < ${f.before}::timestamptz + ${sql.raw(MESSAGE_SLACK)}
        and g.created_at >= ${f.after}::timestamptz and g.created_at < ${f.before}::timestamptz
        and ${nonprofitWhere}
        ${after ? sql`and m.created_at >= ${after.t}::timestamptz and (m.created_at, m.id) > (${after.t}::timestamptz, ${after.id})` : sql``}
      order by m.created_at, m.id
      limit ${GRANT_STREAM_PAGE}`,
    );
  });
  let text = '';
  for (const r of rows) text += `${r.line}\n`;
  const tail = rows[rows.length - 1];
  return { text, last: rows.length === GRANT_STREAM_PAGE && tail ? { t: tail.t, id: tail.id } : null };
}

/** The grants as an NDJSON byte stream; a failure part-way errors the stream (a cut connection, never a short body that looks whole). */
export function streamGrantDeliveries(accountId: string, filters: TGrantDeliveryFilters): ReadableStream<Uint8Array> {
  return keysetStream<TCursor>((a) => readPage(accountId, filters, a));
}
