import { ADMIT } from '../../lib/service/delivery/admit-send';
import { CANDIDATES, CLAIM, RENEW } from '../../lib/service/delivery/claim';
import { HEALTHY_SUCCESSES } from '../../lib/service/delivery/record-scheduled-attempts';

// What the worker sends to the store for one claim and for each by-id statement after it, for
// claim-partitions.ts: the app's own text where the app sends fixed text (prepared, by the app's names),
// and the query builder's updates as it writes them (unnamed: planned at each run). Those the app sends by prunedRows
// (lib/db/query.ts) go unnamed on PostgreSQL, as it sends them.

export type TConn = {
  kind: 'pglite' | 'postgres';
  q: <T = Record<string, unknown>>(text: string, params?: unknown[], name?: string) => Promise<T[]>;
  exec: (text: string) => Promise<void>;
};

export type TBenchClaim = { id: string; messageId: string; webhookId: string; accountId: string; createdAt: string };

const OWNER = 'bench';
/** prunedRows' name: none on PostgreSQL. */
const pruned = (c: TConn, name: string) => (c.kind === 'postgres' ? undefined : name);
const LEASE_MS = 30_000;

/** One claim of up to `limit` due deliveries, as claimDeliveries sends it. */
export async function claimOnce(c: TConn, limit = 10): Promise<TBenchClaim[]> {
  const candidates = await c.q<{ id: string; created_at: Date | string }>(CANDIDATES, [limit, []], 'claim_candidates');
  const rows = await c.q<{ id: string | null; message_id: string; webhook_id: string; account_id: string; created_at: Date | string }>(
    CLAIM,
    [LEASE_MS, OWNER, limit, [], candidates.map((k) => k.id), candidates.map((k) => new Date(k.created_at).toISOString())],
    pruned(c, 'claim_deliveries'),
  );
  return rows.flatMap((r) =>
    r.id === null
      ? []
      : [{ id: r.id, messageId: r.message_id, webhookId: r.webhook_id, accountId: r.account_id, createdAt: new Date(r.created_at).toISOString() }],
  );
}

type TStatement = { name: string; run: (c: TConn, claim: TBenchClaim) => Promise<unknown> };

const d = '"service"."deliveries"';

export const byIdStatements: TStatement[] = [
  { name: 'renew lease', run: (c, k) => c.q(RENEW, [LEASE_MS, [k.id], [OWNER], [k.createdAt]], pruned(c, 'renew_leases')) },
  {
    name: 'success (healthy batch)',
    run: (c, k) =>
      c.q(
        HEALTHY_SUCCESSES,
        [
          [`atmpt_bench${Math.random().toString(36).slice(2, 18)}`],
          [k.id],
          [k.messageId],
          [k.webhookId],
          [k.accountId],
          ['http://127.0.0.1:9/'],
          [new Date().toISOString()],
          [200],
          [5],
          ['ok'],
          ['scheduled'],
          [OWNER],
          [1],
          [k.createdAt],
        ],
        pruned(c, 'record_healthy_successes'),
      ),
  },
  {
    name: 'failure (retry later)',
    run: (c, k) =>
      c.q(
        `update ${d} set "attempt_count" = ${d}."attempt_count" + 1, "scheduled_attempt_count" = $1, "lease_owner" = $2, "lease_until" = $3,
           "updated_at" = now(), "status" = $4, "next_attempt_at" = now() + $5::int * interval '1 millisecond'
         where (${d}."id" = $6 and ${d}."created_at" = $9::timestamptz and ${d}."status" = $7 and ${d}."lease_owner" = $8) returning "event_type", "attempt_count"`,
        [1, null, null, 'pending', 60_000, k.id, 'sending', OWNER, k.createdAt],
      ),
  },
  {
    name: 'release',
    run: (c, k) =>
      c.q(
        `update service.deliveries set status = 'pending', lease_owner = null, lease_until = null, updated_at = now() where id = $1 and created_at = $3::timestamptz and status = 'sending' and lease_owner = $2`,
        [k.id, OWNER, k.createdAt],
      ),
  },
  {
    name: 'abandon',
    run: (c, k) =>
      c.q(
        `update ${d} set "status" = $1, "next_attempt_at" = $2, "lease_owner" = $3, "lease_until" = $4, "updated_at" = now(),
           "stop_reason" = (select case when m.erased_at is not null then 'donor_erased' when m.payload_purged_at is not null then 'payload_purged' end
             from service.messages m where m.id = ${d}."message_id"),
           "stopped_at" = case when (select case when m.erased_at is not null then 'donor_erased' when m.payload_purged_at is not null then 'payload_purged' end
             from service.messages m where m.id = ${d}."message_id") is not null then now() end
         where (${d}."id" = $5 and ${d}."created_at" = $8::timestamptz and ${d}."status" = $6 and ${d}."lease_owner" = $7)`,
        ['failed', null, null, null, k.id, 'sending', OWNER, k.createdAt],
      ),
  },
  {
    // The cap's log full (untimed), so the admission refuses for a second and gives the delivery back.
    name: 'admit (given back)',
    run: async (c, k) => {
      await c.q(`update service.webhook_rates set sent_at = array[clock_timestamp()::timestamptz(3)] where webhook_id = $1`, [k.webhookId]);
      const t0 = performance.now();
      await c.q(ADMIT, [k.webhookId, 1, k.id, OWNER, 50, k.createdAt], pruned(c, 'admit_send'));
      return performance.now() - t0;
    },
  },
];
