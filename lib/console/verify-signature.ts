import { timingSafeEqual } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { TSignatureVerdict } from '@/lib/constants';

// The signature verdict of a received request, from its raw bytes, with the standardwebhooks
// package. Both header families are accepted: webhook-* (Standard Webhooks) and svix-* (what
// Svix-based senders use); svix-* are mapped to webhook-* for the verifier. Up to two secrets may
// be active (rotation): valid when any of them verifies.

export type TVerdict = { verdict: TSignatureVerdict; reason: string };

const TOLERANCE_SECONDS = 300; // the package's own window

type TSignatureHeaders = { family: 'webhook' | 'svix'; id: string; timestamp: string; signature: string };

function headerSet(headers: Headers, family: 'webhook' | 'svix'): Partial<TSignatureHeaders> {
  return {
    family,
    id: headers.get(`${family}-id`) ?? undefined,
    timestamp: headers.get(`${family}-timestamp`) ?? undefined,
    signature: headers.get(`${family}-signature`) ?? undefined,
  };
}

function complete(h: Partial<TSignatureHeaders>): h is TSignatureHeaders {
  return Boolean(h.id && h.timestamp && h.signature);
}

function missingOf(h: Partial<TSignatureHeaders>): string[] {
  return (['id', 'timestamp', 'signature'] as const).filter((k) => !h[k]).map((k) => `${h.family}-${k}`);
}

/** The message id a sender put on the request: webhook-id, else svix-id. */
export function messageIdOf(headers: Headers): string | null {
  const id = headers.get('webhook-id') ?? headers.get('svix-id');
  return id ? id.slice(0, 200) : null;
}

function signatureMatches(wh: Webhook, h: TSignatureHeaders, ts: number, payload: Buffer): boolean {
  const expected = Buffer.from(wh.sign(h.id, new Date(ts * 1000), payload).split(',')[1]);
  return h.signature.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * `body` null means it was not kept (over the size limit). The package signs the body as a UTF-8
 * string, so a body that is not valid UTF-8 cannot verify — senders sign JSON, which always is.
 */
export function verifySignature(body: Buffer | null, headers: Headers, secrets: string[], nowSeconds = Math.floor(Date.now() / 1000)): TVerdict {
  const webhook = headerSet(headers, 'webhook');
  const svix = headerSet(headers, 'svix');
  const chosen = complete(webhook) ? webhook : complete(svix) ? svix : null;

  if (secrets.length === 0) {
    return {
      verdict: 'no secret configured',
      reason: `This receiver has no signing secret, so nothing was checked${chosen ? '' : ' (the request carried no complete signature headers either)'}. Add the webhook's whsec_… secret to the receiver.`,
    };
  }
  if (!chosen) {
    const family = webhook.id || webhook.timestamp || webhook.signature || !(svix.id || svix.timestamp || svix.signature) ? webhook : svix;
    return {
      verdict: 'missing headers',
      reason: `No complete set of signature headers: missing ${missingOf(family).join(', ')} (expected webhook-id, webhook-timestamp and webhook-signature, or the svix-* equivalents).`,
    };
  }
  const ts = /^\d{1,12}$/.test(chosen.timestamp.trim()) ? Number(chosen.timestamp.trim()) : NaN;
  if (Number.isNaN(ts)) {
    return { verdict: 'missing headers', reason: `${chosen.family}-timestamp is not a unix time in seconds (got "${chosen.timestamp.slice(0, 40)}").` };
  }
  if (body === null) {
    return { verdict: 'invalid signature', reason: 'Not verified: the body was over the size limit and was not kept.' };
  }

  const unbranded = { 'webhook-id': chosen.id, 'webhook-timestamp': chosen.timestamp, 'webhook-signature': chosen.signature };
  const of = secrets.length > 1 ? ` of ${secrets.length}` : '';
  let staleMatch: number | null = null;
  let unusable = 0;
  for (const [i, secret] of secrets.entries()) {
    let wh: Webhook;
    try {
      wh = new Webhook(secret);
    } catch {
      unusable++;
      continue;
    }
    try {
      wh.verify(body, unbranded, { jsonParse: false });
      return { verdict: 'valid', reason: `Verified with the ${chosen.family}-* headers and secret ${i + 1}${of}.` };
    } catch (err) {
      if (!(err instanceof WebhookVerificationError)) throw err;
      // The package checks the timestamp before the signature; tell a stale but genuine message
      // from a forged one.
      if (/timestamp too (old|new)/i.test(err.message) && staleMatch === null && signatureMatches(wh, chosen, ts, body)) staleMatch = i;
    }
  }
  const age = nowSeconds - ts;
  const when = age >= 0 ? `${age} s old` : `${-age} s in the future`;
  const outside = Math.abs(age) > TOLERANCE_SECONDS;
  if (staleMatch !== null) {
    return {
      verdict: 'timestamp outside tolerance',
      reason: `The signature matches secret ${staleMatch + 1}${of}, but ${chosen.family}-timestamp is ${when} (tolerance ±${TOLERANCE_SECONDS} s): a replay or a clock problem.`,
    };
  }
  const parts = [`No ${chosen.family}-signature matches the ${secrets.length > 1 ? `${secrets.length} configured secrets` : 'configured secret'}.`];
  if (outside) parts.push(`The timestamp is also ${when}.`);
  if (unusable) parts.push(`${unusable} secret${unusable > 1 ? 's are' : ' is'} not valid base64.`);
  return { verdict: 'invalid signature', reason: parts.join(' ') };
}
