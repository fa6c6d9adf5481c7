import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

// The webhook endpoint the delivery bench aims at, on loopback in the bench process: answers 200
// at once and notes when each request ended, by path. On /sink/latency it also reads the grant id
// out of the event, so the time from a grant's 201 to its arrival can be taken. Under
// /sink/delay-<ms>/ it answers that many milliseconds after the request ended, as a real receiver
// that does some work before answering. Under /sink/timed/ it keeps every arrival with its grant
// id (the peak section's per-delivery latency and per-second counts).

export type TSink = {
  origin: string;
  /** Distinct (path, webhook-id) pairs received on paths starting with `prefix`. */
  distinct: (prefix: string) => number;
  /** Requests (retries included) on paths starting with `prefix`. */
  total: (prefix: string) => number;
  /** performance.now() of the newest arrival on paths starting with `prefix`. */
  lastArrival: (prefix: string) => number;
  /** Requests on paths starting with `prefix` that ended at or after `t` (performance.now()). */
  arrivalsSince: (prefix: string, t: number) => number;
  bodySizes: (prefix: string) => number[];
  /** Every arrival on /sink/timed/ paths starting with `prefix`: its path, grant id and time. */
  timed: (prefix: string) => TTimedArrival[];
  /** Resolves with the arrival time of the grant's event on /sink/latency; null after `timeoutMs`. */
  grantArrival: (grantId: string, timeoutMs: number) => Promise<number | null>;
  close: () => Promise<void>;
};

/** `messageId`: the delivery's webhook-id header (its message), which its attempt row names too. */
export type TTimedArrival = { path: string; grantId: string; messageId: string; at: number };

type TPathStats = { seen: Set<string>; total: number; last: number; times: number[]; sizes: number[] };

/** `stalls`: what /sink/__stalls answers (sink-process.ts's watch on its own event loop). */
export async function startSink({ stalls }: { stalls?: () => unknown } = {}): Promise<TSink> {
  const byPath = new Map<string, TPathStats>();
  const arrivals = new Map<string, number>();
  const waiters = new Map<string, (at: number) => void>();
  const timed: TTimedArrival[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const path = (req.url ?? '/').split('?')[0];
      const body = Buffer.concat(chunks);
      const stats = byPath.get(path) ?? { seen: new Set(), total: 0, last: 0, times: [], sizes: [] };
      byPath.set(path, stats);
      stats.seen.add(String(req.headers['webhook-id']));
      stats.total++;
      stats.last = at;
      stats.times.push(at);
      if (stats.sizes.length < 1000) stats.sizes.push(body.length);
      if (path.startsWith('/sink/timed/')) timed.push({ path, grantId: grantIdOf(body), messageId: String(req.headers['webhook-id'] ?? ''), at });
      if (path === '/sink/__timed') {
        // The peak section's sink runs in a process of its own (sink-process.ts): its arrivals, by wall-clock ms.
        const prefix = new URL(req.url ?? '/', 'http://x').searchParams.get('prefix') ?? '';
        const rows = timed.filter((a) => a.path.startsWith(prefix)).map((a) => ({ ...a, at: a.at + performance.timeOrigin }));
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
      }
      if (path === '/sink/__stalls') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stalls?.() ?? []));
      if (path === '/sink/latency') {
        const grantId = grantIdOf(body); // '' when not an event: counted, not timed
        if (grantId && !arrivals.has(grantId)) arrivals.set(grantId, at);
        if (grantId) waiters.get(grantId)?.(at);
      }
      const delayMs = Number(/^\/sink\/delay-(\d+)\//.exec(path)?.[1] ?? 0);
      const answer = () => res.writeHead(200, { 'content-length': '0' }).end();
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));

  const matching = (prefix: string) => [...byPath].filter(([p]) => p.startsWith(prefix)).map(([, s]) => s);
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    distinct: (prefix) => matching(prefix).reduce((n, s) => n + s.seen.size, 0),
    total: (prefix) => matching(prefix).reduce((n, s) => n + s.total, 0),
    arrivalsSince: (prefix, t) => matching(prefix).reduce((n, s) => n + s.times.filter((x) => x >= t).length, 0),
    lastArrival: (prefix) => Math.max(0, ...matching(prefix).map((s) => s.last)),
    timed: (prefix) => timed.filter((a) => a.path.startsWith(prefix)),
    bodySizes: (prefix) => matching(prefix).flatMap((s) => s.sizes),
    grantArrival: (grantId, timeoutMs) => {
      const known = arrivals.get(grantId);
      if (known !== undefined) return Promise.resolve(known);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiters.delete(grantId);
          resolve(null);
        }, timeoutMs);
        waiters.set(grantId, (at) => {
          clearTimeout(timer);
          waiters.delete(grantId);
          resolve(at);
        });
      });
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

function grantIdOf(body: Buffer): string {
  try {
    return String(JSON.parse(body.toString('utf8'))?.data?.id ?? '');
  } catch {
    return '';
  }
}
