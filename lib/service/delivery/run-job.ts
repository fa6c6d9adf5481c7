import { isStoreUnavailable } from '@/lib/db/store-availability';
import { describeForLog } from '@/lib/http/log-error';
import { ADMIT_HOLD_MS } from './admit-send';
import { backoffMs } from './backoff';
import type { TClaim, TDeliveryJob } from './claim';
import type { TSendResult } from './send-webhook';
import type { TJobOutcome, TWorker } from './worker-state';

// One job's life in the worker (worker.ts schedules them): the rate cap's admission when its webhook
// has one, the send, and its outcome written.

/**
 * A capped send handed to its socket this long after its admission (send-lateness.ts: on the worker's clock, past the quickest
 * recent admission's) has its entry in the cap's log moved to its real start (restamp, beside the request). The log counts a
 * second as 1.02 s (admit-send.ts): sends that each leave within 20 ms of their admission hold no more than the cap in any second.
 */
export const LATE_SEND_MS = 15;

/** A refused send whose row was locked (admit-send.ts `locked`) asks again this much later: a renewal's lock lasts a statement. */
const LOCKED_RETRY_MS = 10;

/**
 * Records an attempt's outcome; while the store is unavailable, tries again (backing off) as long
 * as the lease is still this claim's, so the receiver is not sent the same message again only
 * because the outage outlasted one write.
 */
async function recordOutcome(w: TWorker, claim: TClaim, url: string, result: TSendResult): Promise<void> {
  for (let n = 1; ; n++) {
    try {
      return await w.deps.record(claim, url, result);
    } catch (err) {
      const wait = backoffMs(n);
      if (!isStoreUnavailable(err) || wait > w.leases.leftMs(claim.id)) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/**
 * A capped webhook's send asks its limiter just before it goes (admit-send.ts): admitted, its entry's time (the store's clock)
 * and when the answer was taken (the worker's; null: no log, no entry). Refused for
 * a moment (a send a few ms short of room), it waits here and asks again; refused for longer, the limiter gave the delivery
 * back to go when room opens (`deferred`), or, its row locked that moment, it asks again; a lease lost meanwhile leaves
 * nothing of ours (`released`).
 */
async function admitted(w: TWorker, claim: TClaim, rateLimit: number): Promise<TJobOutcome | { at: number; answeredAt: number } | null> {
  for (;;) {
    const verdict = await w.deps.admit(claim, rateLimit);
    if (verdict.admitted) return verdict.at === null ? null : { at: verdict.at, answeredAt: Date.now() };
    if (verdict.givenBack) return 'deferred';
    if (w.leases.leftMs(claim.id) <= 0 || (verdict.waitMs > ADMIT_HOLD_MS && !verdict.locked)) return 'released';
    // Refused for a moment; or its row was locked as it was to be given back: asked again, it is given back then, or another's.
    await new Promise((r) => setTimeout(r, verdict.locked ? LOCKED_RETRY_MS : verdict.waitMs));
    if (w.stopping) {
      await w.deps.release(claim);
      return 'released';
    }
  }
}

/**
 * A capped webhook's jobs in this worker ask its limiter one at a time, in the order they started: each waits for the one
 * before it to be admitted or let go. Asking together, the ready ones (up to twice its share of the slots) each came back
 * every few ms while room opened a send at a time (half a slot apart: admit-send.ts), and queued on its log's row lock —
 * in the peak bench's burst, five admissions on average waited on that row, and their commits on the WAL before the grants'.
 */
async function inTurn<T>(w: TWorker, webhookId: string, ask: () => Promise<T>): Promise<T> {
  const before = w.admitting.get(webhookId);
  let done!: () => void;
  const mine = new Promise<void>((r) => (done = r));
  const turn = before ? before.then(() => mine) : mine;
  w.admitting.set(webhookId, turn);
  try {
    if (before) await before;
    return await ask();
  } finally {
    done();
    if (w.admitting.get(webhookId) === turn) w.admitting.delete(webhookId);
  }
}

/**
 * A capped send handed to its socket more than LATE_SEND_MS after its admission (the process did not run in between: a busy
 * event loop, a starved core) has its entry moved to the store's clock as the move runs, while its request is out: counted at its
 * admission, the sends admitted in the second after it would find room beside it and reach the receiver in one second with it.
 */
function restampIfLate(w: TWorker, claim: TClaim, admission: { at: number; answeredAt: number } | null, sentAt: number): Promise<void> | null {
  if (admission === null || w.lateness.of(admission.at, admission.answeredAt, sentAt) <= LATE_SEND_MS) return null;
  return w.deps.restamp(claim, admission.at).catch((err) => w.deps.log(`[worker] moving a late send's entry in the cap's log failed: ${describeForLog(err)}`));
}

/**
 * Sends one job, which holds a slot of its endpoint (pump took it); a claim that waited so long its lease is half spent is
 * given back instead. `sent()` frees its slot as soon as the request is over: the outcome is
 * recorded after, batched with others (group commit), while the slot already takes the next job.
 */
export async function runJob(w: TWorker, job: TDeliveryJob, claimedAt: number, sent: () => void): Promise<TJobOutcome> {
  if (!job.target) {
    await w.deps.abandon(job.claim);
    return 'abandoned';
  }
  const endpoint = job.target.url;
  let result: TSendResult;
  try {
    if (w.leases.lost(job.claim.id)) return 'released'; // another worker holds it now: nothing of ours to give back
    if (Date.now() - claimedAt > w.config.leaseMs / 2 || w.stopping) {
      await w.deps.release(job.claim);
      return 'released';
    }
    const rateLimit = job.target.rateLimit;
    let admission: { at: number; answeredAt: number } | null = null;
    if (rateLimit) {
      const verdict = await inTurn(w, job.claim.webhookId, () => admitted(w, job.claim, rateLimit));
      if (typeof verdict === 'string') return verdict;
      admission = verdict;
    }
    const sending = w.deps.send({ claim: job.claim, target: job.target });
    // Judged once the send's synchronous part is over — it signs the request and hands it to a pooled connection's socket — so
    // a process not run while it did (preempted on a starved core) counts as late too. Judged before it, the peak bench's
    // capped receiver got a send 119 ms after its start with no stall of its own, and 21 in that second (as sent, 20).
    const restamped = restampIfLate(w, job.claim, admission, Date.now());
    result = await sending;
    await restamped;
  } finally {
    w.slots.release(endpoint); // the endpoint's limit is on requests in flight, not on our bookkeeping
  }
  sent();
  await recordOutcome(w, job.claim, endpoint, result);
  return result.ok ? 'success' : 'failed';
}
