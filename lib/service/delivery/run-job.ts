import { isStoreUnavailable } from '@/lib/db/store-availability';
import { ADMIT_HOLD_MS } from './admit-send';
import { backoffMs } from './backoff';
import type { TClaim, TDeliveryJob } from './claim';
import type { TSendResult } from './send-webhook';
import type { TJobOutcome, TWorker } from './worker-state';

// One job's life in the worker (worker.ts schedules them): the rate cap's admission when its webhook
// has one, the send, and its outcome written.

/**
 * A send that goes out this long after its admission is counted again as it goes (admitted below). The cap's log counts a
 * second as 1.02 s (admit-send.ts): sends that each start within 20 ms of their admission hold no more than the cap in
 * any second as they leave; 5 ms of that are left for the few steps between the check and the request.
 */
export const LATE_SEND_MS = 15;

/** A refused send whose row was locked (admit-send.ts `locked`) asks again this much later: a renewal's lock lasts a statement. */
const LOCKED_RETRY_MS = 10;

/** Re-admissions of one send that went late each time, at most: then it goes (a machine that starved for that long keeps no pace anyway). */
const MAX_READMISSIONS = 3;

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
 * A capped webhook's send asks its limiter just before it goes (admit-send.ts): null when admitted. Refused for a moment (a
 * send a few ms short of room), it waits here and asks again; refused for longer, the limiter gave the delivery back to go
 * when room opens (`deferred`), or, its row locked that moment, asks again; a lease lost meanwhile leaves nothing of ours
 * (`released`). Admitted, but about to go more
 * than LATE_SEND_MS after it (the process did not run between the statement and here: a busy event loop, a starved
 * core), it asks again, replacing its entry: counted at its admission, it could reach the receiver in the second of the
 * next ones, one over the cap there (the peak bench read 21 of 20, as sent).
 */
async function admitted(w: TWorker, claim: TClaim, rateLimit: number): Promise<TJobOutcome | null> {
  let replacing: number | null = null;
  for (let readmitted = 0; ;) {
    const verdict = await w.deps.admit(claim, rateLimit, replacing);
    if (verdict.admitted) {
      if (Date.now() - verdict.at <= LATE_SEND_MS || readmitted++ === MAX_READMISSIONS) return null;
      replacing = verdict.at;
      continue;
    }
    replacing = null; // a refusal took the entry out
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
    if (rateLimit) {
      const refused = await admitted(w, job.claim, rateLimit);
      if (refused) return refused;
    }
    result = await w.deps.send({ claim: job.claim, target: job.target });
  } finally {
    w.slots.release(endpoint); // the endpoint's limit is on requests in flight, not on our bookkeeping
  }
  sent();
  await recordOutcome(w, job.claim, endpoint, result);
  return result.ok ? 'success' : 'failed';
}
