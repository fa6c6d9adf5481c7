import { isUtf8 } from 'node:buffer';
import { signingKey, signV1 } from '@/lib/crypto/standard-webhooks';
import { ApiError } from '@/lib/http/errors';
import { isHopByHop } from '@/lib/http/hop-by-hop';

// What a forward sends, worked out from a stored receipt (pure):
//   verbatim  the stored method, headers (in arrival order) and body bytes, less the hop-by-hop
//             headers (lib/http/hop-by-hop.ts: host, content-length, connection, …);
//   resign    the same, with webhook-timestamp set to `at` and webhook-signature a new Standard
//             Webhooks `v1` signature under `secret` (the same for the svix-* family when the
//             receipt carried it); webhook-id stays the stored one.

export const FORWARD_MODES = ['verbatim', 'resign'] as const;
export type TForwardMode = (typeof FORWARD_MODES)[number];

export type TForwardSource = { method: string; headers: [string, string][]; body: Uint8Array | null; messageId: string | null };
export type TForwardRequest = { method: string; headers: [string, string][]; body: Uint8Array };

const FAMILIES = ['webhook', 'svix'] as const;

export function forwardRequest(receipt: TForwardSource, mode: TForwardMode, { secret, at }: { secret?: string; at: Date }): TForwardRequest {
  const body = receipt.body ?? new Uint8Array();
  const kept = receipt.headers.filter(([name]) => !isHopByHop(name));
  if (mode === 'verbatim') return { method: receipt.method, headers: kept, body };

  const lower = kept.map(([name]) => name.toLowerCase());
  const id = kept.find(([n]) => /^(webhook|svix)-id$/i.test(n))?.[1] ?? receipt.messageId;
  if (!id)
    throw new ApiError('bad_request', 'mode resign needs a webhook-id, and this receipt has none: forward it verbatim.', {
      errors: [{ path: 'mode', message: 'resign needs a receipt with a webhook-id' }],
    });
  const key = secret ? signingKey(secret) : null;
  if (!secret || !key)
    throw new ApiError('bad_request', 'secret must be a whsec_… secret (base64 after the prefix).', {
      errors: [{ path: 'secret', message: 'must be a whsec_… secret' }],
    });
  const seconds = Math.floor(at.getTime() / 1000);
  const signature = `v1,${signV1(key, id, seconds, isUtf8(body) ? Buffer.from(body).toString('utf8') : Buffer.from(body))}`;
  const values: Record<string, string> = { id, timestamp: String(seconds), signature };

  const present = FAMILIES.filter((f) => lower.some((n) => n.startsWith(`${f}-`) && /-(id|timestamp|signature)$/.test(n)));
  const families: readonly string[] = present.length ? present : ['webhook'];
  const headers: [string, string][] = kept.map(([name, value]) => {
    const m = /^(webhook|svix)-(timestamp|signature)$/i.exec(name);
    return m && families.includes(m[1].toLowerCase()) ? [name, values[m[2].toLowerCase()]] : [name, value];
  });
  for (const family of families) {
    for (const part of ['id', 'timestamp', 'signature'] as const) {
      if (!lower.includes(`${family}-${part}`)) headers.push([`${family}-${part}`, values[part]]);
    }
  }
  return { method: receipt.method, headers, body };
}
