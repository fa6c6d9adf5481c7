// At most `limit` requests in flight to one endpoint (a webhook's URL), however many of its
// deliveries a worker has claimed: a slow or struggling receiver gets a steady trickle, not a burst,
// and cannot take every slot of the worker from the other endpoints' deliveries.

export class EndpointSlots {
  private readonly busy = new Map<string, number>();
  private readonly queues = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  /** Resolves when a slot for `endpoint` is free (and taken); give it back with `release`. */
  acquire(endpoint: string): Promise<void> {
    const n = this.busy.get(endpoint) ?? 0;
    if (n < this.limit) {
      this.busy.set(endpoint, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.queues.get(endpoint) ?? [];
      queue.push(resolve);
      this.queues.set(endpoint, queue);
    });
  }

  release(endpoint: string): void {
    const queue = this.queues.get(endpoint);
    const next = queue?.shift();
    if (queue && queue.length === 0) this.queues.delete(endpoint);
    if (next) return next(); // the slot passes straight to the next in line
    const n = (this.busy.get(endpoint) ?? 1) - 1;
    if (n <= 0) this.busy.delete(endpoint);
    else this.busy.set(endpoint, n);
  }
}
