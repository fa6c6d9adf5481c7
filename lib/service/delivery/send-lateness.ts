// How late a capped send starts after its admission (run-job.ts decides whether to restamp it), judged
// on the worker's clock alone. The admission's entry (`at`) is the store's clock_timestamp(), and the
// store may run on another host whose clock is ahead of or behind the worker's by any amount: the
// worker's Date.now() at the request minus `at` is that skew plus the lateness (a store 15 ms behind
// made every send late, one more UPDATE each). Nor is the time from the answer to the request enough:
// the two are a microtask apart, and the stall the restamp exists for (a busy event loop, a starved
// core) falls between the store stamping the entry and the worker taking its answer.
// So each admission's answer-minus-entry, a mixed figure (the skew, the commit and the way back, and
// any stall), is compared with the least of the last few seconds': the skew is in both and cancels,
// and what is left is how much longer than the quickest recent admission this one took to reach the
// worker, plus its time from the answer to the request. A clock slewed by NTP (at most 0.5 ms/s)
// moves the least one by a few ms over its window; a clock stepped forward reads every send as late
// until the window passes (restamps, which cost an UPDATE each and never let the cap through).

/** The least answer-minus-entry is taken over the last WINDOW_MS to 2 × WINDOW_MS. */
const WINDOW_MS = 5_000;

export class SendLateness {
  private current = Infinity;
  private previous = Infinity;
  private since = -Infinity;

  /**
   * How many ms after its admission a send starts: `at` its entry (the store's clock, epoch ms), `answeredAt` when the
   * worker took the answer and `startedAt` when its request starts (the worker's clock, epoch ms). Notes the admission.
   */
  of(at: number, answeredAt: number, startedAt: number): number {
    const lag = answeredAt - at;
    if (answeredAt - this.since >= 2 * WINDOW_MS) [this.previous, this.current, this.since] = [Infinity, Infinity, answeredAt];
    else if (answeredAt - this.since >= WINDOW_MS) [this.previous, this.current, this.since] = [this.current, Infinity, answeredAt];
    this.current = Math.min(this.current, lag);
    return startedAt - answeredAt + lag - Math.min(this.current, this.previous);
  }
}
