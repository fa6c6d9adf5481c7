import { type DbOrTx } from '@/lib/db/client';
import { driverRows, prunedRows, sql } from '@/lib/db/query';

export type TClaim = {
  id: string;
  messageId: string;
  webhookId: string;
  accountId: string;
  scheduledAttemptCount: number;
  /** Set when a recover run re-queued it: this attempt is that run's one manual re-send, not a step of the schedule. */
  recoverRunId: string | null;
  /** This claim's lease token: results are written back only while the delivery still carries it. */
  leaseOwner: string;
  /** The delivery's created_at (ISO), its partition key: every statement on it names it, so it plans only its partition. */
  createdAt: string;
};

/**
 * A claimed delivery with what sending it takes; `target` null: the webhook was disabled or deleted meanwhile. `rateLimit`: the
 * webhook's cap, whose limiter admits the send just before it goes (admit-send.ts); null or absent: none, nothing to ask.
 */
export type TDeliveryJob = {
  claim: TClaim;
  target: { url: string; payload: string; secrets: string[]; traceParent?: string | null; rateLimit?: number | null } | null;
};

/** What one claim took, and when the next delivery it left behind falls due. */
export type TClaimed = {
  jobs: TDeliveryJob[];
  /**
   * Milliseconds until the next delivery not claimed here falls due by the database's clock — a
   * waiting one's next attempt, or a lease running out — or null when none waits; 0 or less: now.
   */
  nextDueInMs: number | null;
};

type TClaimRow = {
  next_due_ms: number | string | null;
  id: string | null;
  created_at: Date | string;
  message_id: string;
  webhook_id: string;
  account_id: string;
  scheduled_attempt_count: number;
  recover_run_id: string | null;
  url: string | null;
  rate_limit: number | null;
  payload: string | null;
  secrets: string[] | null;
  trace_parent: string | null;
};

// The queue (migration 0041): service.delivery_queue holds the deliveries not settled, kept by triggers on
// service.deliveries, which stays the truth every other statement reads and writes. Partitioned by created_at, the
// deliveries cannot be searched by due time without planning and probing every partition (a year of days is 372: with
// 42 the claim's first runs on a connection took 150-600 ms, then 2.4-11 ms each; docs/PERFORMANCE.md). So a claim is two
// statements: CANDIDATES reads the queue for the due ones (no lock: a write of the queue waits for its delivery's row
// first, as the triggers take them, so a lock here would take them in the other order), twice the limit, so that what
// another worker locks meanwhile still leaves enough, each with whether its webhook is paused or capped (`gated`);
// CLAIM then locks and takes them in service.deliveries by id and created_at, which names their partitions, so it plans
// and reads those alone, and checks again that each is due. $1 limit, $2 webhooks to leave out.
export const CANDIDATES = `
  select q.id, q.created_at, coalesce(w.paused_at is not null or w.rate_limit is not null, false) as gated
  from service.delivery_queue q left join service.webhooks w on w.id = q.webhook_id
  where ((q.status = 'pending' and q.next_attempt_at <= now()) or (q.status = 'sending' and q.lease_until < now())) and q.webhook_id <> all($2::text[])
  order by q.next_attempt_at
  limit 2 * $1::int`;

// What both claims share ($1 lease in ms, $2 owner, $3 limit, $4 webhooks to leave out, $5/$6 the candidates' ids and
// created_at): the candidates still due, locked (`gate`: a condition on them), and the queue rows left without a delivery.
const pickedAndGone = (gate: string) => `picked as (
    select id, webhook_id, created_at, slot_at from service.deliveries d
    where id = any($5::uuid[]) and created_at = any($6::timestamptz[])
      and ((status = 'pending' and next_attempt_at <= now()) or (status = 'sending' and lease_until < now())) and webhook_id <> all($4::text[])${gate}
    order by next_attempt_at
    limit $3::int
    for update skip locked),
  gone as (
    delete from service.delivery_queue q where q.id = any($5::uuid[])
      and not exists (select 1 from service.deliveries d where d.id = q.id and d.created_at = q.created_at and d.created_at = any($6::timestamptz[]))
    returning q.id)`;

// When the next of the queue's other deliveries falls due: a waiting one's attempt, or a lease running out.
const QUEUE_NEXT_DUE = `(select min(next_attempt_at) from service.delivery_queue
        where status = 'pending' and id not in (select id from picked) and id not in (select id from gone) and webhook_id <> all($4::text[])),
      (select min(lease_until) from service.delivery_queue where status = 'sending' and id not in (select id from picked) and webhook_id <> all($4::text[]))`;

// The claimed deliveries with what sending them takes, after the one row saying when the next falls due.
const JOBS = `
  select next_due.ms as next_due_ms, c.*, w.url, w.rate_limit, m.payload, m.trace_parent,
    (select array_agg(s.secret order by s.created_at desc) from service.webhook_secrets s
      where s.webhook_id = w.id and (s.expires_at is null or s.expires_at > now())) as secrets
  from next_due
  left join claimed c on true
  left join service.webhooks w on w.id = c.webhook_id and not w.disabled and w.deleted_at is null
  left join service.messages m on m.id = c.message_id and m.created_at = c.created_at and m.created_at = any($6::timestamptz[]) and m.payload_purged_at is null`;

// Sent to the driver as fixed text ($1 lease in ms, $2 owner, $3 limit, $4 webhooks to leave out, $5/$6 the candidates'
// ids and created_at) by prunedRows (lib/db/query.ts): planned at each run for the partitions its $6 names. A queue
// row whose delivery is gone without its trigger (a partition dropped under it) leaves here. A paused webhook's row is
// locked FOR SHARE while its deliveries are parked: a resume (an UPDATE of that row) waits for this
// claim's commit, and so the resume's own unparking sees, and makes due, what this claim parked.
// A capped webhook's due deliveries without a slot get the next slots of its schedule (its
// webhook_rates row, locked in webhook order by the claims that slot: one schedule across workers),
// oldest first, 1.02 s / rateLimit apart — the pace the send's own limiter keeps (admit-send.ts:
// rateLimit sends per 1.02 s), so a backlog's sends are not refused there one by one — and wait with
// their slot as their next attempt (slot_at says they have one), out of every claim's way. Those
// whose slot has come are handed out, oldest first, only as far as the webhook's sends of the last
// 1.02 s leave room (read, not locked nor written: the send's limiter is what keeps the cap, this
// only keeps a worker that woke late from claiming several come slots to have them refused); the
// rest are left as they are, and the worker comes back when room opens.
export const CLAIM = `
  with ${pickedAndGone('')},
  paused as (
    select p.id from picked p join service.webhooks w on w.id = p.webhook_id
    where w.paused_at is not null and not w.disabled and w.deleted_at is null
    for share of w),
  parked as (
    update service.deliveries set status = 'pending', next_attempt_at = null, slot_at = null, lease_owner = null, lease_until = null, updated_at = now()
    where id in (select id from paused) and created_at = any($6::timestamptz[])),
  capped as (
    select p.id, p.webhook_id, p.created_at, p.slot_at, w.rate_limit from picked p join service.webhooks w on w.id = p.webhook_id
    where w.rate_limit is not null and w.paused_at is null and not w.disabled and w.deleted_at is null),
  rates as (
    select webhook_id, greatest(next_at, now()) as start from service.webhook_rates
    where webhook_id in (select webhook_id from capped where slot_at is null)
    order by webhook_id
    for update),
  slotted as (
    select c.id, c.webhook_id, interval '1020 milliseconds' / c.rate_limit as step,
      r.start + (row_number() over (partition by c.webhook_id order by c.created_at, c.id) - 1) * (interval '1020 milliseconds' / c.rate_limit) as slot
    from capped c join rates r on r.webhook_id = c.webhook_id where c.slot_at is null),
  come as (
    select c.id, c.webhook_id, c.rate_limit, row_number() over (partition by c.webhook_id order by c.created_at, c.id) as k
    from capped c left join slotted s on s.id = c.id
    where s.id is null or s.slot <= now()),
  room as (
    select r.webhook_id, greatest(0, c.rate_limit - cardinality(r.recent)) as n,
      coalesce(r.recent[greatest(1, cardinality(r.recent) - c.rate_limit + 1)], now()) + interval '1020 milliseconds' as free_at
    from (select webhook_id, array(select t from unnest(sent_at) t where t > now() - interval '1020 milliseconds' order by t) as recent
          from service.webhook_rates where webhook_id in (select webhook_id from come)) r
      join (select distinct webhook_id, rate_limit from come) c on c.webhook_id = r.webhook_id),
  held as (
    select c.id, c.webhook_id, r.free_at from come c join room r on r.webhook_id = c.webhook_id where c.k > r.n),
  waiting as (
    update service.deliveries d set status = 'pending', next_attempt_at = s.slot, slot_at = s.slot, lease_owner = null, lease_until = null, updated_at = now()
    from slotted s where d.id = s.id and d.created_at = any($6::timestamptz[]) and (s.slot > now() or s.id in (select id from held))),
  scheduled as (
    update service.webhook_rates r set next_at = (select max(slot + step) from slotted s where s.webhook_id = r.webhook_id)
    where r.webhook_id in (select webhook_id from slotted)),
  claimed as (
    update service.deliveries
    set status = 'sending', slot_at = null, lease_until = now() + $1::int * interval '1 millisecond', lease_owner = $2::text, updated_at = now()
    where id in (select id from picked) and created_at = any($6::timestamptz[]) and id not in (select id from paused)
      and id not in (select id from slotted where slot > now()) and id not in (select id from held)
    returning id, created_at, message_id, webhook_id, account_id, scheduled_attempt_count, recover_run_id),
  next_due as (
    select extract(epoch from (least(
      ${QUEUE_NEXT_DUE},
      (select min(slot) from slotted where slot > now()),
      (select min(free_at) from held)
    ) - clock_timestamp())) * 1000 as ms)
${JOBS}`;

// The claim when no candidate's webhook is paused or capped (CANDIDATES' `gated`), as nearly always: CLAIM without the
// parking and the pacing, a third of its planning (planned at every run: 0.4 against 1.6 ms, quiet). A webhook paused
// or capped since CANDIDATES read it keeps its deliveries here, due, and the next claim, told so, takes them by CLAIM.
export const CLAIM_PLAIN = `
  with ${pickedAndGone(`
      and not exists (select 1 from service.webhooks w where w.id = d.webhook_id and (w.paused_at is not null or w.rate_limit is not null))`)},
  claimed as (
    update service.deliveries
    set status = 'sending', slot_at = null, lease_until = now() + $1::int * interval '1 millisecond', lease_owner = $2::text, updated_at = now()
    where id in (select id from picked) and created_at = any($6::timestamptz[])
    returning id, created_at, message_id, webhook_id, account_id, scheduled_attempt_count, recover_run_id),
  next_due as (
    select extract(epoch from (least(
      ${QUEUE_NEXT_DUE}) - clock_timestamp())) * 1000 as ms)${JOBS}`;

/**
 * Takes up to `limit` due deliveries, with what sending them takes (body, URL, the secrets that
 * sign now), in one statement: waiting ones whose time has come, and ones left `sending` by a worker
 * whose lease ran out (it died mid-attempt). Those of a paused webhook are parked instead (pending
 * with no next attempt, until a resume makes them due: lib/service/webhooks/pause-webhook.ts); those
 * of a capped webhook beyond its rate wait for their slot (lib/service/webhooks/rate-schedule.ts), and
 * each of its sends is admitted by the cap's limiter as it goes (admit-send.ts).
 * SKIP LOCKED lets any number of workers claim side by side without waiting for, or taking, each
 * other's rows. The webhooks in `skip` (those holding their share of this worker: worker-state.ts)
 * are left out, and their due deliveries are not what the next due time says: the worker claims
 * for them again once one of theirs is sent. A delivery whose webhook is disabled or
 * deleted — or whose payload retention purged or a donor erasure replaced — comes back without a target, to be abandoned. The same statement reads when the next of
 * the others falls due, so a worker knows how long it may sleep without asking again.
 */
export async function claimDeliveries({
  owner,
  limit,
  leaseMs,
  skip = [],
}: {
  owner: string;
  limit: number;
  leaseMs: number;
  skip?: string[];
}): Promise<TClaimed> {
  const candidates = await driverRows<{ id: string; created_at: Date | string; gated: boolean }>(CANDIDATES, [limit, skip], 'claim_candidates');
  const ids = candidates.map((c) => c.id);
  const createdAts = candidates.map((c) => new Date(c.created_at).toISOString());
  const gated = candidates.some((c) => c.gated);
  const rows = await prunedRows<TClaimRow>(
    gated ? CLAIM : CLAIM_PLAIN,
    [leaseMs, owner, limit, skip, ids, createdAts],
    gated ? 'claim_deliveries' : 'claim_plain',
  );
  const ms = rows[0]?.next_due_ms;
  const jobs = rows.flatMap((r): TDeliveryJob[] => {
    if (r.id === null) return [];
    const claim: TClaim = {
      id: r.id,
      messageId: r.message_id,
      webhookId: r.webhook_id,
      accountId: r.account_id,
      scheduledAttemptCount: Number(r.scheduled_attempt_count),
      recoverRunId: r.recover_run_id ?? null,
      leaseOwner: owner,
      createdAt: new Date(r.created_at).toISOString(),
    };
    const target =
      r.url !== null && r.payload !== null
        ? { url: r.url, payload: r.payload, secrets: r.secrets ?? [], traceParent: r.trace_parent, rateLimit: r.rate_limit }
        : null;
    return [{ claim, target }];
  });
  return { jobs, nextDueInMs: ms === null || ms === undefined ? null : Number(ms) };
}

/** Gives a claimed delivery back, unattempted, for any worker to take now (its lease is still ours). */
export async function releaseClaim(db: DbOrTx, claim: TClaim): Promise<void> {
  await db.execute(
    sql`update service.deliveries set status = 'pending', lease_owner = null, lease_until = null, updated_at = now()
        where id = ${claim.id} and created_at = ${claim.createdAt}::timestamptz and status = 'sending' and lease_owner = ${claim.leaseOwner}`,
  );
}

// $1 lease in ms, $2 the deliveries' ids, $3 their claims' owners, $4 their created_at (lease-keeper.ts).
export const RENEW = `
  update service.deliveries d set lease_until = now() + $1::int * interval '1 millisecond'
  from unnest($2::uuid[], $3::text[], $4::timestamptz[]) as v(id, owner, created_at)
  where d.id = v.id and d.created_at = v.created_at and d.created_at = any($4::timestamptz[]) and d.status = 'sending' and d.lease_owner = v.owner
  returning d.id`;

/** Extends the leases of claims in flight, in one statement; answers the ids whose lease was still theirs. */
export async function renewLeases(claims: TClaim[], leaseMs: number): Promise<string[]> {
  const rows = await prunedRows<{ id: string }>(
    RENEW,
    [leaseMs, claims.map((c) => c.id), claims.map((c) => c.leaseOwner), claims.map((c) => c.createdAt)],
    'renew_leases',
  );
  return rows.map((r) => r.id);
}
