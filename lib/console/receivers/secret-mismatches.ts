import type { ConnectApi } from '@/lib/console/connect-api';
import { mapLimit } from '@/lib/console/map-limit';
import { secretFingerprint } from '@/lib/console/secret-fingerprint';

// The webhooks delivering to a receiver that sign with a secret the receiver does not hold: every
// delivery of theirs will fail verification there. Said when the receiver's secrets are saved and
// on its page, by fingerprints only (lib/console/secret-fingerprint.ts), never the secrets.

export type TSecretMismatch = {
  webhookId: string;
  description: string;
  url: string;
  /** The fingerprint of the secret the webhook signs with. */
  webhookFingerprint: string;
  /** The fingerprints of the secrets the receiver holds. */
  receiverFingerprints: string[];
  message: string;
};

type TWebhookRef = { id: string; description: string; url: string };

/** Pure: which of these webhooks (with the secret each signs with, null if unknown) the receiver's secrets cannot verify. */
export function secretMismatches(webhooks: (TWebhookRef & { secret: string | null })[], receiverSecrets: string[]): TSecretMismatch[] {
  // A receiver without a secret verifies nothing: no delivery fails verification there.
  if (receiverSecrets.length === 0) return [];
  const held = new Set(receiverSecrets.map(secretFingerprint));
  const receiverFingerprints = [...held];
  return webhooks.flatMap((w) => {
    if (w.secret === null) return [];
    const webhookFingerprint = secretFingerprint(w.secret);
    if (held.has(webhookFingerprint)) return [];
    const name = w.description || w.url;
    const holds = receiverFingerprints.map((f) => `${f}…`).join(' and ');
    return [
      {
        webhookId: w.id,
        description: w.description,
        url: w.url,
        webhookFingerprint,
        receiverFingerprints,
        message: `Webhook “${name}” (${w.id}) signs with a secret this receiver does not hold (fingerprint ${webhookFingerprint}… vs ${holds}): its deliveries here will fail verification.`,
      },
    ];
  });
}

/**
 * Reads each webhook's signing secret (EXT) and compares. A secret that cannot be read (a service
 * without the extension, a webhook gone, the API down) gives no warning: the save it follows stands.
 */
export async function findSecretMismatches(api: ConnectApi, webhooks: TWebhookRef[], receiverSecrets: string[]): Promise<TSecretMismatch[]> {
  if (receiverSecrets.length === 0 || webhooks.length === 0) return [];
  const withSecrets = await mapLimit(webhooks, 4, async (w) => ({
    ...w,
    secret: await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: w.id } } }).then(
      (s) => s.key,
      () => null,
    ),
  }));
  return secretMismatches(withSecrets, receiverSecrets);
}
