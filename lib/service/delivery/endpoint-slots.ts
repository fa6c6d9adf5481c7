// At most `limit` requests in flight to one endpoint (a webhook's URL), however many of its
// deliveries a worker has claimed: a slow or struggling receiver gets a steady trickle, not a burst.
// A delivery whose endpoint is full waits in the worker's ready list without a worker slot
// (worker.ts), so a slow endpoint's backlog cannot take the slots of the other endpoints' deliveries.

export class EndpointSlots {
  private readonly busy = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Takes a slot for `endpoint` if one is free (give it back with `release`); false when the endpoint is at its limit. */
  tryAcquire(endpoint: string): boolean {
    const n = this.busy.get(endpoint) ?? 0;
    if (n >= this.limit) return false;
    this.busy.set(endpoint, n + 1);
    return true;
  }

  release(endpoint: string): void {
    const n = (this.busy.get(endpoint) ?? 1) - 1;
    if (n <= 0) this.busy.delete(endpoint);
    else this.busy.set(endpoint, n);
  }
}
