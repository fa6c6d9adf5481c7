import { isStoreUnavailable } from '@/lib/db/store-availability';
import { describeForLog } from '@/lib/http/log-error';
import type { TClaim } from './claim';

// A worker's leases on the deliveries it works on, kept alive. From the moment a job starts (its
// endpoint's slot taken, the request in flight, its outcome waiting for the commit) until its
// outcome is written, the keeper renews its lease every tenth of DELIVERY_LEASE_MS, in one statement
// for every job due: a receiver that holds the request longer than the lease, or a process stalled
// for most of one, does not let the lease run out, and so no worker — this one included — claims
// the delivery again and sends it a second time. Most attempts end in milliseconds and are never
// renewed. A renewal that finds the lease gone (the store was out of reach for longer than a lease,
// and another worker holds the delivery now) marks the job lost: not yet sent, it is not sent.

/** Renews the leases of `claims`; answers the ids still this worker's. */
export type TRenewLeases = (claims: TClaim[]) => Promise<string[]>;

type THeld = { claim: TClaim; until: number; renewedAt: number; lost: boolean };

export class LeaseKeeper {
  private readonly held = new Map<string, THeld>();
  private readonly everyMs: number;
  private timer: NodeJS.Timeout | null = null;
  private renewing = false;

  constructor(
    private readonly leaseMs: number,
    private readonly renew: TRenewLeases,
    private readonly log: (line: string) => void,
  ) {
    this.everyMs = Math.max(10, Math.floor(leaseMs / 10));
  }

  /** Keeps `claim`'s lease, taken at `claimedAt` (this process's clock, before the claim was sent), alive until `drop`. */
  hold(claim: TClaim, claimedAt: number): void {
    this.held.set(claim.id, { claim, until: claimedAt + this.leaseMs, renewedAt: claimedAt, lost: false });
    this.timer ??= setInterval(() => void this.tick(), this.everyMs).unref();
  }

  drop(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0) this.stop();
  }

  /** Milliseconds the lease surely has left by this process's clock (≤ 0: it may be another's now). */
  leftMs(id: string): number {
    const h = this.held.get(id);
    return h && !h.lost ? h.until - Date.now() : 0;
  }

  /** Whether a renewal found the lease another worker's. */
  lost(id: string): boolean {
    return this.held.get(id)?.lost ?? false;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.renewing) return;
    const at = Date.now();
    const due = [...this.held.values()].filter((h) => !h.lost && at - h.renewedAt >= this.everyMs);
    if (due.length === 0) return;
    this.renewing = true;
    try {
      // `at` was taken before the statement went out: the store's new lease_until is later than at + leaseMs.
      const ours = new Set(await this.renew(due.map((h) => h.claim)));
      for (const h of due) {
        if (ours.has(h.claim.id)) Object.assign(h, { until: at + this.leaseMs, renewedAt: at });
        else h.lost = true;
      }
    } catch (err) {
      // Tried again at the next tick, while the lease lasts; an unavailable store is logged once by the database client.
      if (!isStoreUnavailable(err)) this.log(`[worker] renewing leases failed: ${describeForLog(err)}`);
    } finally {
      this.renewing = false;
    }
  }
}
