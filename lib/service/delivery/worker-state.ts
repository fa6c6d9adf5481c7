import type { TAdmission } from './admit-send';
import type { TClaim, TClaimed, TDeliveryJob } from './claim';
import type { EndpointSlots } from './endpoint-slots';
import type { LeaseKeeper } from './lease-keeper';
import type { SendLateness } from './send-lateness';
import type { TSendResult } from './send-webhook';
import type { Wakeup } from './wakeup';

// The delivery worker's state (worker.ts runs the loop over it) and how much it may claim at a time.

/** `deferred`: a capped webhook's send its limiter did not admit, given back to go when room opens (no attempt made). */
export type TJobOutcome = 'success' | 'failed' | 'abandoned' | 'released' | 'deferred';

export type TWorkerDeps = {
  /**
   * Due deliveries, each with what sending it takes (null target: its webhook is gone or disabled), and when the next falls due;
   * none of the webhooks in `skip` (those holding their share here: fullWebhooks), whose due deliveries do not count as due.
   */
  claim: (limit: number, owner: string, skip: string[]) => Promise<TClaimed>;
  /** A capped webhook's send, asked just before it goes: admitted (`at`, epoch ms), or refused for `waitMs` (given back when longer than a short wait). */
  admit: (claim: TClaim, rateLimit: number) => Promise<TAdmission>;
  /** Moves a late send's entry in the cap's log from its admission (`at`, the store's epoch ms) to the store's clock as it runs (the request is out). */
  restamp: (claim: TClaim, at: number) => Promise<void>;
  send: (job: TDeliveryJob & { target: NonNullable<TDeliveryJob['target']> }) => Promise<TSendResult>;
  record: (claim: TClaim, url: string, result: TSendResult) => Promise<void>;
  abandon: (claim: TClaim) => Promise<void>;
  release: (claim: TClaim) => Promise<void>;
  /** Extends the leases of `claims`; answers the ids whose lease is still this worker's. */
  renew: (claims: TClaim[]) => Promise<string[]>;
  listen: (onWake: () => void) => Promise<() => Promise<void>>;
  log: (line: string) => void;
  /** Called on every turn of the loop (readiness: the loop is alive). */
  tick?: () => void;
};

export type TWorkerConfig = {
  concurrency: number;
  perEndpoint: number;
  fallbackPollMs: number;
  leaseMs: number;
  /** While slots send and the last claim took everything due, a claim waits until this long after it: the commits that woke the loop one by one are claimed together. */
  gatherMs?: number;
};

export type TStats = { attempts: number; delivered: number; failed: number; abandoned: number; released: number; deferred: number; errors: number };

export type TWorker = {
  id: string;
  deps: TWorkerDeps;
  config: TWorkerConfig;
  stopping: boolean;
  wakeup: Wakeup;
  slots: EndpointSlots;
  /** The leases of the started jobs, renewed until their outcome is written. */
  leases: LeaseKeeper;
  /** How late each capped send starts after its admission, on this worker's clock (run-job.ts restamps the late ones). */
  lateness: SendLateness;
  /** Per capped webhook, the turn of its last job to ask the limiter here: its jobs ask one at a time (run-job.ts). */
  admitting: Map<string, Promise<void>>;
  /** Claimed (leased) and waiting for a slot, oldest first. */
  ready: { job: TDeliveryJob; claimedAt: number }[];
  /** Every job started and not yet finished: sending, or sent and its outcome not yet committed. */
  jobs: Set<Promise<void>>;
  /** Jobs holding one of the `concurrency` slots: started and not yet sent. */
  busy: number;
  /** Per webhook, its jobs held here: ready, or started and not yet sent. */
  held: Map<string, number>;
  /** The last claim took all it asked for, or the loop did not ask: more may be due once the ready batch runs low. */
  saturated: boolean;
  /** When the last claim was made, and whether it left nothing due behind (it took fewer than it asked). */
  lastClaim: { at: number; drained: boolean };
  /** Claims in a row that found nothing: the poll of a listening worker backs off with them (idlePollMs). */
  emptyClaims: number;
  /** The poll does not back off: the worker could not LISTEN, or a backed-off poll found deliveries no NOTIFY announced. */
  steadyPoll: boolean;
  stats: TStats;
  loop: Promise<void> | null;
  unlisten: (() => Promise<void>) | null;
};

/** Outcomes sent and not yet committed, at most: beyond it the worker claims nothing more until they are (a slow store holds back the sending). */
const maxUnrecorded = (config: TWorkerConfig): number => 4 * config.concurrency;

/** Jobs kept claimed ahead of the slots: one batch's worth. */
const ahead = (config: TWorkerConfig): number => config.concurrency;

/** The ready batch is claimed again once it is down to half. */
const lowWater = (config: TWorkerConfig): number => Math.floor(ahead(config) / 2);

/** Claims of fewer rows than this wait while slots have work: claims in batches, not one slot at a time. */
const refillAt = (config: TWorkerConfig): number => Math.max(1, Math.floor(config.concurrency / 8));

/**
 * Requests in flight to one endpoint, at most: its limit, and never more than half the slots (rounded up), so a slow
 * endpoint leaves the other half to the others' deliveries, which start at once rather than behind its backlog.
 */
export const endpointShare = (config: TWorkerConfig): number => Math.min(config.perEndpoint, Math.ceil(config.concurrency / 2));

/** A webhook holding this many jobs here (its share in flight and as many ready) is left out of the next claims until one is sent. */
export const heldShare = (config: TWorkerConfig): number => 2 * endpointShare(config);

/** The webhooks holding their share or more here: claims leave their due deliveries in the store (for another worker, or for later). */
export function fullWebhooks(w: TWorker): string[] {
  const cap = heldShare(w.config);
  const full: string[] = [];
  for (const [id, n] of w.held) if (n >= cap) full.push(id);
  return full;
}

/** Jobs held by the webhooks in `full`, of which `ready` are waiting for a slot: they do not count against the room for the others. */
function heldBy(w: TWorker, full: string[]): { all: number; ready: number } {
  if (full.length === 0) return { all: 0, ready: 0 };
  const set = new Set(full);
  let all = 0;
  for (const id of full) all += w.held.get(id) ?? 0;
  return { all, ready: w.ready.reduce((n, r) => n + (set.has(r.job.claim.webhookId) ? 1 : 0), 0) };
}

/**
 * How many more jobs the worker may claim now for webhooks not in `full`: the free slots and the batch ahead, less what
 * the others hold (a full webhook's jobs do not take the room of the others), within the bound on outcomes waiting to be recorded.
 */
export function room(w: TWorker, full: string[]): number {
  const theirs = heldBy(w, full).all;
  const held = w.busy + w.ready.length - theirs;
  return Math.max(0, Math.min(w.config.concurrency + ahead(w.config) - held, maxUnrecorded(w.config) - w.jobs.size - w.ready.length));
}

/** Whether to claim now: a slot has nothing to take, or the ready batch (full webhooks' jobs aside) is low and a batch's worth of room is free. */
export function shouldClaim(w: TWorker, n: number, full: string[]): boolean {
  if (n === 0) return false;
  const ready = w.ready.length - heldBy(w, full).ready;
  if (ready === 0 && w.busy < w.config.concurrency) return true;
  return ready <= lowWater(w.config) && n >= refillAt(w.config);
}

/** The longest poll of an idle worker that LISTENs: the net for what no NOTIFY announces (a retry left by a worker that died). */
export const IDLE_POLL_MAX_MS = 30_000;

/**
 * How long an idle worker may sleep before it asks again when no commit wakes it and nothing is due
 * sooner. A worker that LISTENs is woken by every commit that queues deliveries and learns the next
 * due time from each claim, so its poll is only a net: DELIVERY_POLL_MS after work, doubling with each
 * claim in a row that found nothing, up to IDLE_POLL_MAX_MS (an idle app claimed 30 times a minute).
 * One that could not LISTEN polls every DELIVERY_POLL_MS.
 */
export function idlePollMs(config: Pick<TWorkerConfig, 'fallbackPollMs'>, emptyClaims: number, steadyPoll: boolean): number {
  const poll = config.fallbackPollMs;
  if (steadyPoll || emptyClaims <= 1) return poll;
  return Math.max(poll, Math.min(IDLE_POLL_MAX_MS, poll * 2 ** Math.min(emptyClaims - 1, 16)));
}

/**
 * Counts a claim that took `claimed` jobs. `backedOff`: the sleep before it was ended by a poll
 * longer than DELIVERY_POLL_MS, not by a NOTIFY or a due time. Deliveries found then were queued
 * without a NOTIFY reaching this worker (a pooler in transaction mode drops them; or a worker that
 * died left a retry behind): from then on the worker polls every DELIVERY_POLL_MS, as before the backoff.
 */
export function noteClaim(w: TWorker, claimed: number, backedOff: boolean): void {
  w.emptyClaims = claimed === 0 ? w.emptyClaims + 1 : 0;
  if (claimed === 0 || !backedOff || w.steadyPoll) return;
  w.steadyPoll = true;
  w.deps.log(
    `[worker] a poll found deliveries that no NOTIFY announced (a pooler in transaction mode drops them; or a stopped worker left them): polling every ${w.config.fallbackPollMs} ms from now on`,
  );
}
