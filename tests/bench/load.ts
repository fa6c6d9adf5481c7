import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';

// A closed-loop load generator: `connections` keep-alive connections, each sending its next
// request when the previous answer is read. Bounded by count and by time.

export type TRequest = { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string | Buffer };

export type TLoadResult = {
  sent: number;
  ok: number;
  statuses: Record<string, number>;
  errors: number;
  firstError: string | null;
  /** Milliseconds from sending to the end of the answer, one per answered request. */
  latencies: number[];
  /** When each of those was sent (epoch ms), in the same order. */
  sentAt: number[];
  seconds: number;
  /** 2xx answers per second. */
  perSecond: number;
};

export async function runLoad(
  origin: string,
  opts: {
    count: number;
    connections: number;
    maxSeconds: number;
    make: (i: number) => TRequest;
    until?: () => boolean;
    /**
     * Requests a second, sent on a schedule whatever the answers (an open loop), each timed from when it was due, so one
     * held up for a free connection counts its wait. Without: each connection sends its next as soon as it has an answer.
     */
    rate?: number;
  },
): Promise<TLoadResult> {
  const pool = new Pool(origin, { connections: opts.connections, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  const sentAt: number[] = [];
  let next = 0;
  let ok = 0;
  let errors = 0;
  let firstError: string | null = null;
  const deadline = performance.now() + opts.maxSeconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: opts.connections }, async () => {
      while (next < opts.count && performance.now() < deadline && !opts.until?.()) {
        const i = next++;
        const request = opts.make(i);
        const due = opts.rate ? t0 + (i * 1000) / opts.rate : 0;
        if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
        const start = opts.rate ? due : performance.now();
        try {
          const res = await pool.request(request);
          await res.body.dump();
          latencies.push(performance.now() - start);
          sentAt.push(performance.timeOrigin + start);
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
          if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        } catch (err) {
          errors++;
          firstError ??= String(err);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  return { sent: next, ok, statuses, errors, firstError, latencies, sentAt, seconds, perSecond: ok / seconds };
}
