import { createHash } from 'node:crypto';
import { headerHasSignature, signingKey, signV1 } from '@/lib/crypto/standard-webhooks';
import { secretFingerprint } from '../secret-fingerprint';

// Why a receipt's signature did or did not verify, fact by fact: which secret matches (ignoring the
// timestamp window), how far the timestamp was from the arrival, whether the body is byte-for-byte
// what the service sent, and the fingerprints of both sides' secrets.

export type TSecretCheck = { label: string; fingerprint: string; matches: boolean };

export type TForensics = {
  family: 'webhook' | 'svix' | null;
  /** Arrival minus the signed timestamp, in seconds (positive: the request is older than its arrival). */
  skewSeconds: number | null;
  /** The receiver's secrets, current first, each checked against the signatures the request carried. */
  receiverSecrets: TSecretCheck[];
  /** The webhook's current secret at the service (EXT), checked the same way; null when unknown. */
  webhookSecret: TSecretCheck | null;
  /** sha256 of the body received and of the payload the service reports it sent; match null when unknown. */
  bodySha256: string | null;
  sentSha256: string | null;
  bodyMatches: boolean | null;
  signatureCount: number;
};

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function header(headers: [string, string][], name: string): string | undefined {
  return headers.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** Whether one of the request's v1 signatures was made with `secret` (the timestamp window is not applied). */
export function signedWith(secret: string, id: string, timestamp: number, body: Buffer, signatures: string): boolean {
  const key = signingKey(secret);
  return key !== null && headerHasSignature(signatures, signV1(key, id, timestamp, body));
}

export function signatureForensics(input: {
  headers: [string, string][];
  body: Uint8Array | null;
  receivedAt: Date;
  receiverSecrets: string[];
  webhookSecret: string | null;
  /** The exact JSON text the service sent (its message payload, serialised), when known. */
  sentBody: string | null;
}): TForensics {
  const family = header(input.headers, 'webhook-signature') ? 'webhook' : header(input.headers, 'svix-signature') ? 'svix' : null;
  const id = family ? header(input.headers, `${family}-id`) : undefined;
  const ts = family ? Number(header(input.headers, `${family}-timestamp`)) : NaN;
  const signatures = family ? (header(input.headers, `${family}-signature`) ?? '') : '';
  const body = input.body ? Buffer.from(input.body) : null;
  const check = (label: string, secret: string): TSecretCheck => ({
    label,
    fingerprint: secretFingerprint(secret),
    matches: Boolean(id && Number.isFinite(ts) && body && signedWith(secret, id, ts, body, signatures)),
  });
  const bodySha256 = body ? sha256(body) : null;
  const sentSha256 = input.sentBody !== null ? sha256(input.sentBody) : null;
  return {
    family,
    skewSeconds: Number.isFinite(ts) ? Math.round(input.receivedAt.getTime() / 1000 - ts) : null,
    receiverSecrets: input.receiverSecrets.map((s, i) => check(i === 0 ? 'receiver, current' : 'receiver, previous', s)),
    webhookSecret: input.webhookSecret ? check('webhook at the service', input.webhookSecret) : null,
    bodySha256,
    sentSha256,
    bodyMatches: bodySha256 && sentSha256 ? bodySha256 === sentSha256 : null,
    signatureCount: signatures ? signatures.split(' ').filter(Boolean).length : 0,
  };
}
