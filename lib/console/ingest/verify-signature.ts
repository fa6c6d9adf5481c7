import { headerHasSignature, signingKey, signV1 } from '@/lib/crypto/standard-webhooks';
import type { TSignatureVerdict } from '@/lib/constants';

// The signature verdict of a received request, from its raw bytes, as the standardwebhooks package
// verifies (lib/crypto/standard-webhooks.ts). Both header families are accepted: webhook-*
// (Standard Webhooks) and svix-* (what Svix-based senders use). Up to two secrets may be active
// (rotation): valid when any of them verifies.

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

  const of = secrets.length > 1 ? ` of ${secrets.length}` : '';
  const age = nowSeconds - ts;
  const outside = age > TOLERANCE_SECONDS || -age > TOLERANCE_SECONDS;
  let staleMatch: number | null = null;
  let unusable = 0;
  for (const [i, secret] of secrets.entries()) {
    const key = signingKey(secret);
    if (!key) {
      unusable++;
      continue;
    }
    if (!headerHasSignature(chosen.signature, signV1(key, chosen.id, ts, body))) continue;
    if (!outside) return { verdict: 'valid', reason: `Verified with the ${chosen.family}-* headers and secret ${i + 1}${of}.` };
    staleMatch ??= i;
  }
  const when = age >= 0 ? `${age} s old` : `${-age} s in the future`;
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
