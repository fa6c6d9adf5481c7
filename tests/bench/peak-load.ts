import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { sleep } from '../helpers/http';
import { GRANT } from './delivery';
import type { TTimedArrival } from './sink';

// The peak section's open-loop load and its arithmetic: grants created at a set pace (not as fast
// as the app answers, as runLoad does), each grant's send time kept by its id; the largest count
// of arrivals in any one second; latencies from a grant's send to each of its deliveries.

export type TPaced = {
  sent: Map<string, number>;
  answered: Map<string, number>;
  ok: number;
  failed: number;
  firstError: string | null;
  firstSentAt: number;
  lastSentAt: number;
};

/**
 * `count` grants over `seconds`, sent on schedule (the k-th at k·seconds/count) through at most
 * `inFlight` connections; a grant whose answer is late does not hold back the next one's send
 * unless every connection is busy (then the pace is the app's, and the table says how far behind).
 */
export async function pacedGrants(
  origin: string,
  opts: { tok: string; apiKey: string; count: number; seconds: number; inFlight?: number; stop?: () => boolean },
): Promise<TPaced> {
  const inFlight = opts.inFlight ?? 32;
  const pool = new Pool(origin, { connections: inFlight, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const headers = { authorization: `Bearer ${opts.tok}`, 'x-service-api-key': opts.apiKey, 'content-type': 'application/json' };
  const body = JSON.stringify(GRANT);
  const result: TPaced = { sent: new Map(), answered: new Map(), ok: 0, failed: 0, firstError: null, firstSentAt: NaN, lastSentAt: NaN };
  const t0 = performance.now();
  const gap = (opts.seconds * 1000) / opts.count;
  let busy = 0;
  const running = new Set<Promise<void>>();
  for (let k = 0; k < opts.count && !opts.stop?.(); k++) {
    const due = t0 + k * gap;
    while (performance.now() < due || busy >= inFlight) await sleep(Math.max(1, Math.min(20, due - performance.now())));
    busy++;
    const sentAt = performance.now();
    if (k === 0) result.firstSentAt = sentAt;
    result.lastSentAt = sentAt;
    const one = (async () => {
      try {
        const res = await pool.request({ method: 'POST', path: '/v1/grants', headers, body });
        const text = await res.body.text();
        if (res.statusCode === 201) {
          result.ok++;
          const id = String(JSON.parse(text).id);
          result.sent.set(id, sentAt);
          result.answered.set(id, performance.now());
        } else {
          result.failed++;
          result.firstError ??= `${res.statusCode} ${text.slice(0, 200)}`;
        }
      } catch (err) {
        result.failed++;
        result.firstError ??= String(err);
      } finally {
        busy--;
      }
    })();
    running.add(one);
    void one.finally(() => running.delete(one));
  }
  await Promise.all(running);
  await pool.close();
  return result;
}

/** The most arrivals in any window of `ms` (a window starts at each arrival). */
export function busiestWindow(times: number[], ms = 1000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= ms) j++;
    best = Math.max(best, i - j + 1);
  }
  return best;
}

/** Latency of each arrival whose grant was sent in `sent` (ms from the send to the arrival). */
export function latencies(arrivals: TTimedArrival[], sent: Map<string, number>): number[] {
  const out: number[] = [];
  for (const a of arrivals) {
    const at = sent.get(a.grantId);
    if (at !== undefined) out.push(a.at - at);
  }
  return out;
}

/** What arrived of `sent` × `webhooks`: lost (never arrived at a path) and repeated (arrived twice at one). */
export function tally(arrivals: TTimedArrival[], sent: Map<string, number>, webhooks: number) {
  const seen = new Set<string>();
  let repeated = 0;
  for (const a of arrivals) {
    if (!sent.has(a.grantId)) continue;
    const key = `${a.path} ${a.grantId}`;
    if (seen.has(key)) repeated++;
    seen.add(key);
  }
  return { expected: sent.size * webhooks, arrived: seen.size, lost: sent.size * webhooks - seen.size, repeated };
}
