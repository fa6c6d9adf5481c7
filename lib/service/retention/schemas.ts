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

const ZPartitionStatus = z
  .object({
    table: z.string().meta({ example: 'service.attempts' }),
    count: z.number().int().meta({ description: 'How many partitions it has now, those made ahead included.' }),
    oldestFrom: ZInstantOut.nullable().meta({ description: "The oldest partition's start; null: from the beginning (an upgraded store's first partition)." }),
    newestTo: ZInstantOut.nullable().meta({ description: "The newest partition's end (partitions are made a week ahead)." }),
    bytes: z.number().int().meta({ description: 'Their total size with indexes, in bytes.' }),
    retention: z.number().int().meta({ description: "The deployment's MESSAGE_RETENTION in ms, past which a partition's whole range leaves by a drop." }),
    nextDrop: z
      .object({ partition: z.string(), at: ZInstantOut.meta({ description: "When its range is past the retention: the purge's next pass after drops it." }) })
      .nullable(),
    held: z
      .array(
        z.object({
          partition: z.string(),
          pending: z.number().int().meta({ description: "This account's messages in it with a delivery still pending or sending: kept until it resolves." }),
          accountKept: z.number().int().meta({ description: "This account's messages in it that it keeps longer (its own messageRetention)." }),
          until: ZInstantOut.nullable().meta({ description: 'When the last of those is past its retention; null while a delivery waits.' }),
        }),
      )
      .meta({
        description:
          "Partitions past the retention kept because they hold what must stay; their other rows leave one by one. The counts are the calling account's: both 0, it is kept for another account's messages.",
      }),
  })
  .meta({ id: 'PartitionStatus' });

export const ZAccountRetention = z
  .object({
    effective: ZPair("What the service's purge applies to this account's messages now."),
    overrides: z
      .object({ messagePayloadRetention: z.string().nullable(), messageRetention: z.string().nullable() })
      .meta({ description: "The account's own values; null where the deployment's default applies." }),
    defaults: ZPair("The deployment's defaults (its MESSAGE_PAYLOAD_RETENTION and MESSAGE_RETENTION)."),
    updatedAt: ZInstantOut.nullable().meta({ description: 'When the account last changed its retention; null if it never did.' }),
    partitions: z
      .array(ZPartitionStatus)
      .optional()
      .meta({ description: "The deployment's tables partitioned by time, which retention drops whole (GET only; absent from a service before partitions)." }),
  })
  .meta({ id: 'AccountRetention' });
/** What the purge applies to an account now (`effective`), its own values (`overrides`, null: the default) and the deployment's `defaults`. */
export type TAccountRetention = z.output<typeof ZAccountRetention>;
