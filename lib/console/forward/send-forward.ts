import { request } from 'undici';
import { env } from '@/lib/env';
import { forwardAgent } from './forward-target';
import type { TForwardRequest } from './forward-request';

// One forward on the wire: no redirect followed (a 3xx is the reply), DELIVERY_TIMEOUT_MS for the
// whole exchange, the reply body read up to 64 KiB. Never throws for the network: a failure is the
// result's `error`. An address refused when the socket connects (a name that changed since the
// check) comes back as `refused`.

export const MAX_FORWARD_REPLY_BYTES = 64 * 1024;

export type TForwardReply = {
  status: number; // 0: no reply
  headers: [string, string][];
  body: Uint8Array | null;
  size: number;
  truncated: boolean;
  elapsedMs: number;
  error: string | null;
  refused: string | null;
};

function describeError(err: unknown, timedOut: boolean): string {
  if (timedOut) return `no reply within ${env.DELIVERY_TIMEOUT_MS} ms (timed out)`;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.cause?.message || e.message || String(err);
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 1000);
}

function refusedMessage(err: unknown): string | null {
  for (let e = err as { code?: string; message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === 'EREFUSEDADDRESS') return e.message ?? 'refused';
  }
  return null;
}

export async function sendForward(url: URL, req: TForwardRequest): Promise<TForwardReply> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, env.DELIVERY_TIMEOUT_MS);
  try {
    const res = await request(url, {
      method: req.method as 'POST',
      headers: req.headers.flat(),
      body: req.body.length || !['GET', 'HEAD'].includes(req.method) ? Buffer.from(req.body) : undefined,
      dispatcher: forwardAgent(),
      signal: controller.signal,
      headersTimeout: env.DELIVERY_TIMEOUT_MS,
      bodyTimeout: env.DELIVERY_TIMEOUT_MS,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    for await (const chunk of res.body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      const room = MAX_FORWARD_REPLY_BYTES - size;
      chunks.push(buf.subarray(0, room));
      size += Math.min(buf.length, room);
      if (buf.length > room) {
        truncated = true;
        break; // leaving the loop destroys the rest of the stream
      }
    }
    const headers: [string, string][] = Object.entries(res.headers).flatMap(([name, value]) =>
      Array.isArray(value) ? value.map((v) => [name, v] as [string, string]) : value === undefined ? [] : [[name, String(value)] as [string, string]],
    );
    return { status: res.statusCode, headers, body: Buffer.concat(chunks), size, truncated, elapsedMs: elapsed(), error: null, refused: null };
  } catch (err) {
    const refused = refusedMessage(err);
    return { status: 0, headers: [], body: null, size: 0, truncated: false, elapsedMs: elapsed(), error: refused ?? describeError(err, timedOut), refused };
  } finally {
    clearTimeout(timer);
  }
}
