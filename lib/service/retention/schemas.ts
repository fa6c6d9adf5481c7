import { z } from 'zod';
import { formatDuration, parseDuration } from '@/lib/duration';
import { ZInstantOut } from '@/lib/openapi/shared-schemas';

// EXT /v1/retention: the body of PATCH and the answer of both (account-retention.ts reads and writes
// them, openapi.ts documents them).

/** Bounds of an account's value: a second (tests use seconds) to ten years. */
export const MIN_RETENTION_MS = 1000;
export const MAX_RETENTION_MS = 3650 * 86_400_000;

const ZDuration = z
  .string({ message: 'must be a duration such as 90d, 12h, 30m or 45s (or null for the deployment’s default)' })
  .max(20, { message: 'must be a duration such as 90d, 12h, 30m or 45s' })
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90d, 12h, 30m or 45s' });
    else if (ms < MIN_RETENTION_MS || ms > MAX_RETENTION_MS)
      ctx.addIssue({ code: 'custom', message: `must be between 1s and ${formatDuration(MAX_RETENTION_MS)}` });
    return ms ?? 0;
  })
  .nullable()
  .optional();

export const ZRetentionPatch = z
  .strictObject({
    messagePayloadRetention: ZDuration.meta({
      description:
        "How long this account's message payloads and attempts' response bodies are kept (`90d`, `12h`, `30m`, `45s`; 1s to 3650d); null: the deployment's default.",
      example: '30d',
    }),
    messageRetention: ZDuration.meta({
      description:
        "How long this account's messages, deliveries and attempts are kept; null: the deployment's default. Payloads are kept no longer than their messages.",
      example: '365d',
    }),
  })
  .meta({ id: 'RetentionPatch' });
export type TRetentionPatch = z.output<typeof ZRetentionPatch>;

const ZPair = (description: string) =>
  z.object({ messagePayloadRetention: z.string().meta({ example: '90d' }), messageRetention: z.string().meta({ example: '365d' }) }).meta({ description });

export const ZAccountRetention = z
  .object({
    effective: ZPair("What the service's purge applies to this account's messages now."),
    overrides: z
      .object({ messagePayloadRetention: z.string().nullable(), messageRetention: z.string().nullable() })
      .meta({ description: "The account's own values; null where the deployment's default applies." }),
    defaults: ZPair("The deployment's defaults (its MESSAGE_PAYLOAD_RETENTION and MESSAGE_RETENTION)."),
    updatedAt: ZInstantOut.nullable().meta({ description: 'When the account last changed its retention; null if it never did.' }),
  })
  .meta({ id: 'AccountRetention' });
/** What the purge applies to an account now (`effective`), its own values (`overrides`, null: the default) and the deployment's `defaults`. */
export type TAccountRetention = z.output<typeof ZAccountRetention>;
