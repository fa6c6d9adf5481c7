// How a worker learns that deliveries are due: a NOTIFY on enqueue.ts's DELIVERIES_CHANNEL, sent
// once the transaction that queued them has committed (wake-workers.ts), reaches every listening
// worker — in this process (embedded store) or any other (PostgreSQL).

/**
 * A wake-up call that is not lost when it comes early: `notify()` while nobody waits makes the next
 * `wait()` return at once. Several notifies before a wait count as one.
 */
export class Wakeup {
  private pending = false;
  private resolve: ((notified: boolean) => void) | null = null;
  private timer: NodeJS.Timeout | undefined;

  notify(): void {
    if (this.resolve) this.resolve(true);
    else this.pending = true;
  }

  /** Resolves on `notify()` (true) or after `ms` (false), whichever comes first. */
  wait(ms: number): Promise<boolean> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const done = (notified: boolean) => {
        clearTimeout(this.timer);
        this.resolve = null;
        resolve(notified);
      };
      this.resolve = done;
      this.timer = setTimeout(() => done(false), Math.max(0, ms));
    });
  }
}
