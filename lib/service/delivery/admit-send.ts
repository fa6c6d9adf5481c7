import { driverRows, prunedRows } from '@/lib/db/query';
import type { TClaim } from './claim';

// EXT rate cap, at the moment a capped webhook's delivery goes (the limiter-at-dispatch of Convoy's
// and Svix's workers): the worker asks just before the HTTP send, and the send counts from then.
// The claim gives each delivery its slot (claim.ts), but a claimed job can wait in the worker behind
// other webhooks' sends, or in a stalled process, and several then go together: counted at the
// claim, a second at the receiver held more than rateLimit (the peak bench read 21–25 of 20).
//
// The limiter is a sliding log, not a token bucket: the webhook's sends of the last 1.02 s
// (service.webhook_rates.sent_at, at most rateLimit of them), and a send is admitted while fewer
// than rateLimit are there, and half a slot (0.51 s / rateLimit) or more after the last one. That bounds what any one second holds, which is what the cap promises
// and what the receiver counts; a bucket of rateLimit tokens lets a full burst and its refill into
// one second (2 × rateLimit), and one of a single token spaces every send and cannot catch up after
// a late one. The second is counted as 1.02 s: a send that reaches the receiver up to 20 ms later
// than one a second after it still leaves no more than rateLimit in any second there. The half slot
// keeps the sends of a backlog spread: the log alone admits each as an entry 1.02 s old drops, so a
// bunch (sends that a stall held back, then let go together) came back every 1.02 s — the peak bench
// saw 14 sends in 180 ms, and a receiver late by 20 ms at a bunch's edge then counted more than the
// cap in one second. Spaced at least half a slot apart, a bunch spreads out and catching up after a
// late send is still allowed (twice the pace, for a moment).
//
// A webhook paused since its delivery was claimed (the job waited in the worker for its turn) sends nothing: the delivery
// is parked as a claim parks it (claim.ts) and given back, and its webhook's row is held FOR SHARE meanwhile, so that a
// resume (an UPDATE of that row) waits for this statement and its unparking then sees the parked delivery; a resume
// under way when this statement reads the row is waited for, and the send is then judged on the resumed webhook. Its
// rate row is not taken then: the resume takes the webhook's row and then the rate row, and so does this statement.
//
// One statement: the row locked (the other workers' admissions of the webhook wait for it), the log
// read at the clock once the lock is had, this send added or refused. A send refused for longer
// than `holdMs` is given back in the same statement — pending again, its attempt not made nor
// counted, due when room opens, with that as its slot so the claims do not re-slot it behind the
// backlog; one refused for less waits in the worker and asks again (a late send a few ms short).
// The delivery is given back only if its row is free: a claim taking it over (its lease run out) locks
// it first and then waits for the webhook's row to slot it, which this statement holds — waiting here
// would deadlock the two. But a row locked is not always a claim's: the worker's own lease renewal
// holds it for a moment too, and a send let go then stayed `sending` until its lease ran out (the
// peak bench's last two arrivals came 47 s after the rest). So a locked row still ours is `locked`:
// the worker asks again shortly, and gives it back then, or finds it the claim's (`released`).
// A send that goes out more than a few ms after its admission (its process did not run in between;
// judged on the worker's clock: send-lateness.ts) has its entry moved to the store's clock as the move
// runs, beside the request (restampSend): counted at its admission, the sends admitted in the second
// after it found room beside it and reached the receiver in one second with it (the peak bench read
// 21 of 20 as sent). Moved within that second, the admissions after it wait for its real time. The
// log holds the store's clock alone: the worker's may be another host's, ahead or behind.

/**
 * Refused: `givenBack` when the wait is longer than the worker holds a send, or its webhook is paused (parked); `locked` when it should have been, but another
 * statement held its row for that moment (a lease renewal, or a claim taking it over: the worker asks again, and then gives
 * it back, or finds it another's).
 */
export type TAdmission = { admitted: true; at: number | null } | { admitted: false; waitMs: number; givenBack: boolean; locked: boolean };

/** Refusals shorter than this wait in the worker and ask again; longer ones give the delivery back. */
export const ADMIT_HOLD_MS = 50;

// $1 webhook, $2 rateLimit, $3 delivery, $4 its claim's owner, $5 holdMs, $6 the delivery's created_at (its partition).
export const ADMIT = `
  with paused as (
    select id from service.webhooks where id = $1::text and paused_at is not null for share),
  parked as (
    update service.deliveries d
    set status = 'pending', next_attempt_at = null, slot_at = null, lease_owner = null, lease_until = null, updated_at = now()
    where exists (select 1 from paused) and d.id = $3::uuid and d.created_at = $6::timestamptz and d.status = 'sending' and d.lease_owner = $4::text
      and d.id in (select id from service.deliveries where id = $3::uuid and created_at = $6::timestamptz for update skip locked)
    returning d.id),
  locked as (
    select webhook_id, sent_at from service.webhook_rates where webhook_id = $1::text and not exists (select 1 from paused) for update),
  clocked as (
    select webhook_id, sent_at, clock_timestamp()::timestamptz(3) as at from locked),
  log as (
    select webhook_id, at, array(select t from unnest(sent_at) t where t > at - interval '1020 milliseconds' order by t) as recent from clocked),
  room as (
    select webhook_id, at, recent, greatest(
        case when cardinality(recent) < $2::int then at else recent[cardinality(recent) - $2::int + 1] + interval '1020 milliseconds' end,
        coalesce(recent[cardinality(recent)] + interval '510 milliseconds' / $2::int, at)) as free_at
    from log),
  verdict as (
    select webhook_id, at, recent, free_at, free_at <= at as admitted from room),
  logged as (
    update service.webhook_rates r set sent_at = v.recent || v.at from verdict v where r.webhook_id = v.webhook_id and v.admitted),
  given_back as (
    update service.deliveries d
    set status = 'pending', next_attempt_at = v.free_at, slot_at = coalesce(d.slot_at, v.free_at), lease_owner = null, lease_until = null, updated_at = now()
    from verdict v
    where not v.admitted and v.free_at > v.at + $5::int * interval '1 millisecond' and d.id = $3::uuid and d.created_at = $6::timestamptz
      and d.status = 'sending' and d.lease_owner = $4::text
      and d.id in (select id from service.deliveries where id = $3::uuid and created_at = $6::timestamptz for update skip locked)
    returning d.id),
  ours as (
    select 1 from service.deliveries where id = $3::uuid and created_at = $6::timestamptz and status = 'sending' and lease_owner = $4::text)
  select coalesce((select admitted from verdict), not exists (select 1 from paused)) as admitted,
    (select extract(epoch from at) * 1000 from verdict) as at_ms,
    coalesce((select extract(epoch from (free_at - at)) * 1000 from verdict where not admitted), case when exists (select 1 from paused) then $5::int + 1 end) as wait_ms,
    exists (select 1 from given_back) or exists (select 1 from parked) as given_back,
    (exists (select 1 from verdict where free_at > at + $5::int * interval '1 millisecond') or exists (select 1 from paused))
      and exists (select 1 from ours) and not exists (select 1 from given_back) and not exists (select 1 from parked) as locked`;

/**
 * Admits one send of a webhook capped at `rateLimit`/s now (`at`: its entry in the log, the store's epoch ms), or says how
 * long until room opens (and whether the delivery was given back for then). A webhook with no schedule row is not held back (`at` null: no entry).
 */
export async function admitSend(claim: TClaim, rateLimit: number, holdMs = ADMIT_HOLD_MS): Promise<TAdmission> {
  const [row] = await prunedRows<{ admitted: boolean; at_ms: number | string | null; wait_ms: number | string | null; given_back: boolean; locked: boolean }>(
    ADMIT,
    [claim.webhookId, rateLimit, claim.id, claim.leaseOwner, holdMs, claim.createdAt],
    'admit_send',
  );
  if (!row || row.admitted) return { admitted: true, at: row?.at_ms == null ? null : Number(row.at_ms) };
  return { admitted: false, waitMs: Math.max(0, Number(row.wait_ms ?? 0)), givenBack: row.given_back, locked: row.locked };
}

// $1 webhook, $2 the send's entry (epoch ms, as the admission answered it). An UPDATE: the row as the last admission left
// it, the new entry read at the store's clock once the row is had (an admission holding it commits first).
const RESTAMP = `
  update service.webhook_rates set sent_at = (
    case when array_position(sent_at, to_timestamp($2::float8 / 1000)::timestamptz(3)) is null then sent_at
    else sent_at[:array_position(sent_at, to_timestamp($2::float8 / 1000)::timestamptz(3)) - 1]
      || sent_at[array_position(sent_at, to_timestamp($2::float8 / 1000)::timestamptz(3)) + 1:] end
  ) || clock_timestamp()::timestamptz(3)
  where webhook_id = $1::text`;

/** Moves a late send's entry in its webhook's log from its admission (`at`, epoch ms) to now, by the store's clock (its request is out). */
export async function restampSend(claim: TClaim, at: number): Promise<void> {
  await driverRows(RESTAMP, [claim.webhookId, at], 'restamp_send');
}
