import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import { MAX_RECEIVER_SECRETS, MAX_RESPONSE_BODY_LENGTH, MAX_RESPONSE_DELAY_MS } from './types';

// What staff may set on a receiver: validated here, so a form, a JSON route and the CLI refuse alike.

/** A Standard Webhooks secret the verifier accepts: whsec_ + base64 of 1–128 bytes. */
export function isValidSecret(secret: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]{2,}={0,2}$/.test(secret) || secret.length > 200) return false;
  try {
    new Webhook(secret);
    return true;
  } catch {
    return false;
  }
}

const ZSecret = z.string().trim().refine(isValidSecret, { message: 'must be whsec_ followed by base64 (the webhook signing secret)' });
const ZName = z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });
const ZSlug = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{2,62}$/, { message: 'must be 3-63 lower-case letters, digits or dashes, starting with a letter or digit' });

export const ZReceiverInput = z.object({
  name: ZName,
  slug: ZSlug.optional(),
  secret: z.union([z.literal('').transform(() => undefined), ZSecret]).optional(),
});

export const ZReceiverPatch = z.object({
  name: ZName.optional(),
  secrets: z
    .array(ZSecret)
    .max(MAX_RECEIVER_SECRETS, { message: `at most ${MAX_RECEIVER_SECRETS} secrets (the current and the previous one)` })
    .optional(),
  responseStatus: z.coerce.number().int().min(200, { message: 'must be from 200 to 599' }).max(599, { message: 'must be from 200 to 599' }).optional(),
  responseBody: z
    .string()
    .max(MAX_RESPONSE_BODY_LENGTH, { message: `must be at most ${MAX_RESPONSE_BODY_LENGTH} characters` })
    .optional(),
  responseDelayMs: z.coerce
    .number()
    .int()
    .min(0, { message: 'must be from 0 to 30000' })
    .max(MAX_RESPONSE_DELAY_MS, { message: 'must be from 0 to 30000' })
    .optional(),
});
