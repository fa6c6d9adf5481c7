import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A real webhook endpoint for tests: a node:http server that records every request and verifies
// each one with the standardwebhooks package, once from the webhook-* headers and once from the
// svix-* headers, against the secrets registered for its path.

export type TReceived = {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** Verified with every registered secret, from the webhook-* headers. */
  verified: boolean;
  /** The same from the svix-* headers. */
  verifiedSvix: boolean;
};

export type TReply = { status?: number; headers?: Record<string, string>; body?: string; hold?: Promise<void> };
export type TReplyFn = (req: TReceived, n: number) => TReply | Promise<TReply>;

export function verifyWith(secret: string, body: string, headers: http.IncomingHttpHeaders, prefix: 'webhook' | 'svix'): boolean {
  try {
    new Webhook(secret).verify(body, {
      'webhook-id': String(headers[`${prefix}-id`] ?? ''),
      'webhook-timestamp': String(headers[`${prefix}-timestamp`] ?? ''),
      'webhook-signature': String(headers[`${prefix}-signature`] ?? ''),
    });
    return true;
  } catch {
    return false;
  }
}

export async function startReceiver() {
  const received: TReceived[] = [];
  const replies = new Map<string, TReplyFn>();
  const secrets = new Map<string, string[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const path = (req.url ?? '/').split('?')[0];
      const body = Buffer.concat(chunks).toString('utf8');
      const keys = secrets.get(path) ?? [];
      const rec: TReceived = {
        path,
        headers: req.headers,
        body,
        at: Date.now(),
        verified: keys.length > 0 && keys.every((k) => verifyWith(k, body, req.headers, 'webhook')),
        verifiedSvix: keys.length > 0 && keys.every((k) => verifyWith(k, body, req.headers, 'svix')),
      };
      received.push(rec);
      const n = received.filter((r) => r.path === path).length;
      let reply: TReply = {};
      try {
        reply = (await replies.get(path)?.(rec, n)) ?? {};
        if (reply.hold) await reply.hold;
      } catch {
        /* a failing reply function answers 200 */
      }
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let seq = 0;
  return {
    port,
    received,
    /** A fresh path on this receiver, its full URL, and what it received so far. */
    endpoint(reply?: TReplyFn) {
      const path = `/hook/${++seq}-${Math.random().toString(36).slice(2, 8)}`;
      if (reply) replies.set(path, reply);
      return {
        path,
        url: `http://127.0.0.1:${port}${path}`,
        /** Every request to this path must verify with all of `keys`. */
        expectSecrets: (...keys: string[]) => secrets.set(path, keys),
        reply: (fn: TReplyFn) => replies.set(path, fn),
        requests: () => received.filter((r) => r.path === path),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TReceiver = Awaited<ReturnType<typeof startReceiver>>;
