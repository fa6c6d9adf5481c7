import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

// Webhook requests as a Giving Connect sender makes them: a grant.succeeded event padded to a
// given size, signed per Standard Webhooks, with the webhook-* and svix-* headers the worker sends.

export const BENCH_SECRET = `whsec_${Buffer.from('giving-connect-bench-secret-32b!').toString('base64')}`;

/** A grant.succeeded event whose JSON is exactly `bytes` long (at least ~450). */
export function eventBody(bytes: number, seq: number): string {
  const base = {
    type: 'grant.succeeded',
    timestamp: new Date().toISOString(),
    data: {
      id: randomUUID(),
      trackingId: `GC-${String(seq).padStart(8, '0')}`,
      connectId: 'test_2bench0000000000000000000000',
      amount: 15000,
      feeAmount: 450,
      coveredFees: false,
      status: 'Initiated',
      fundId: 'fidelity-charitable',
      fundName: 'Fidelity Charitable',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.org',
      note: '',
    },
  };
  const pad = bytes - Buffer.byteLength(JSON.stringify(base));
  base.data.note = 'n'.repeat(Math.max(0, pad));
  return JSON.stringify(base);
}

export function signedHeaders(messageId: string, body: string, secret = BENCH_SECRET): Record<string, string> {
  const at = new Date();
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = new Webhook(secret).sign(messageId, at, body);
  return {
    'content-type': 'application/json',
    'user-agent': 'GivingConnect-Webhooks/1.0',
    'webhook-id': messageId,
    'webhook-timestamp': timestamp,
    'webhook-signature': signature,
    'svix-id': messageId,
    'svix-timestamp': timestamp,
    'svix-signature': signature,
  };
}

/** A unique message id shaped like the service's (msg_ + 27 base62 characters). */
export function benchMessageId(): string {
  return `msg_${randomBytes(20)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(27, '0')
    .slice(0, 27)}`;
}

export function signedRequest(path: string, bytes: number, seq: number, secret = BENCH_SECRET) {
  const body = eventBody(bytes, seq);
  return { method: 'POST' as const, path, body, headers: signedHeaders(benchMessageId(), body, secret) };
}
