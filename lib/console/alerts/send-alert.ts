import net from 'node:net';
import { request } from 'undici';
import { signatureHeader } from '@/lib/crypto/standard-webhooks';
import { env } from '@/lib/env';
import { alertAgent, refuseAlertAddress } from './alert-target';

// One POST to a rule's target: signed, Standard Webhooks like every delivery of the service
// (webhook-id / webhook-timestamp / webhook-signature, and the same as svix-*), or without a
// signature for a Slack incoming webhook (`secret` null: its URL is the secret). Never throws: the
// outcome is recorded on the alert.

export type TAlertPostResult = { at: Date; status: number; error: string | null };

const MAX_ERROR_CHARS = 500;

export async function sendAlert(input: { url: string; secret: string | null; messageId: string; body: string }): Promise<TAlertPostResult> {
  const at = new Date();
  const fail = (error: string): TAlertPostResult => ({ at, status: 0, error: error.slice(0, MAX_ERROR_CHARS) });
  let target: URL;
  try {
    target = new URL(input.url);
  } catch {
    return fail(`invalid URL ${input.url}`);
  }
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(literal)) {
    const reason = refuseAlertAddress(literal);
    if (reason) return fail(`refused: ${reason}`);
  }
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = input.secret ? signatureHeader([input.secret], input.messageId, at, input.body) : null;
  const signed = signature
    ? {
        'webhook-id': input.messageId,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
        'svix-id': input.messageId,
        'svix-timestamp': timestamp,
        'svix-signature': signature,
      }
    : {};
  try {
    const res = await request(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'GivingConnect-Console-Alerts/1.0', ...signed },
      body: input.body,
      dispatcher: alertAgent(),
      headersTimeout: env.DELIVERY_TIMEOUT_MS,
      bodyTimeout: env.DELIVERY_TIMEOUT_MS,
      signal: AbortSignal.timeout(env.DELIVERY_TIMEOUT_MS),
    });
    const text = (await res.body.text()).slice(0, MAX_ERROR_CHARS);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    return { at, status: res.statusCode, error: ok ? null : `answered ${res.statusCode}${text ? `: ${text}` : ''}` };
  } catch (err) {
    const e = err as { code?: string; message?: string; cause?: { message?: string } };
    return fail(e.message || e.cause?.message || e.code || String(err));
  }
}
