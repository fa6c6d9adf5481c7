import { Agent, request } from 'undici';
import { DELIVERY_USER_AGENT, MAX_RESPONSE_BODY_BYTES } from '@/lib/constants';
import { signatureHeader } from '@/lib/crypto/standard-webhooks';
import { env } from '@/lib/env';
import { isOwnReceiverUrl } from '@/lib/net/own-receiver';
import { guardedLookup, refusedLiteralHost } from '@/lib/net/ssrf';
import { processSingleton } from '@/lib/process-singleton';

export const USER_AGENT = DELIVERY_USER_AGENT;

/** `traceparent`: the attempt span's W3C header, sent with the delivery when OTEL_DELIVERY_TRACEPARENT asks for it. */
export type TSendInput = { url: string; messageId: string; body: string; secrets: string[]; timeoutMs: number; traceparent?: string | null };
/** What happened; never thrown. `statusCode` 0 means no response, and `response` holds the error. */
export type TSendResult = {
  startedAt: Date;
  statusCode: number;
  ok: boolean;
  durationMs: number;
  response: string;
  retryAfter: string | null;
};

// One keep-alive pool for every delivery of the process, the SSRF guard in its connect step; and one
// without it, for this app's own receivers and setups that allow private addresses.
function agent(guarded: boolean): Agent {
  return processSingleton(
    guarded ? 'delivery-agent' : 'delivery-agent-open',
    () =>
      new Agent({
        keepAliveTimeout: 10_000,
        connect: { timeout: 10_000, ...(guarded ? { lookup: guardedLookup } : {}) },
      }),
  );
}

export function deliveryHeaders(messageId: string, at: Date, body: string, secrets: string[]): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = signatureHeader(secrets, messageId, at, body);
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
    'svix-id': messageId,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
  };
}

function describeError(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no response within ${timeoutMs} ms (timed out)`;
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.message || e.cause?.message || String(err);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

/** One signed POST: no redirects followed (a 3xx fails), the response body read up to 20 000 bytes. */
export async function sendWebhook({ url, messageId, body, secrets, timeoutMs, traceparent }: TSendInput): Promise<TSendResult> {
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (response: string): TSendResult => ({ startedAt, statusCode: 0, ok: false, durationMs: elapsed(), response, retryAfter: null });

  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failure(`invalid URL ${url}`);
  }
  const guarded = !env.DELIVERY_ALLOW_PRIVATE && !isOwnReceiverUrl(target);
  if (guarded) {
    const refused = refusedLiteralHost(target.hostname);
    if (refused) return failure(refused.message);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const res = await request(target, {
      method: 'POST',
      headers: traceparent ? { ...deliveryHeaders(messageId, startedAt, body, secrets), traceparent } : deliveryHeaders(messageId, startedAt, body, secrets),
      body,
      dispatcher: agent(guarded),
      signal: controller.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buf.subarray(0, MAX_RESPONSE_BODY_BYTES - size));
      size += Math.min(buf.length, MAX_RESPONSE_BODY_BYTES - size);
      if (size >= MAX_RESPONSE_BODY_BYTES) break; // leaving the loop destroys the rest of the stream
    }
    const retryAfter = res.headers['retry-after'];
    return {
      startedAt,
      statusCode: res.statusCode,
      ok: res.statusCode >= 200 && res.statusCode < 300,
      durationMs: elapsed(),
      response: Buffer.concat(chunks).toString('utf8'),
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : (retryAfter ?? null),
    };
  } catch (err) {
    return failure(describeError(err, timedOut, timeoutMs));
  } finally {
    clearTimeout(timer);
  }
}
