import { z } from 'zod';
import { formatDuration, parseDuration } from '@/lib/duration';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, sameShape } from '@/lib/openapi/shared-schemas';
import type { TAccountRetention } from './account-retention';

// EXT GET and PATCH /v1/retention in /openapi.json: an account's own retention (account-retention.ts).

/** Bounds of an account's value: a second (tests use seconds) to ten years. */
export const MIN_RETENTION_MS = 1000;
export const MAX_RETENTION_MS = 3650 * 86_400_000;

const ZDuration = z
  .string({ message: 'must be a duration such as 90d, 12h, 30m or 45s (or null for the deployment’s default)' })
  .max(20, { message: 'must be a duration such as 90d, 12h, 30m or 45s' })
  .transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90d, 12h, 30m or 45s' });
    else if (ms < MIN_RETENTION_MS || ms > MAX_RETENTION_MS) ctx.addIssue({ code: 'custom', message: `must be between 1s and ${formatDuration(MAX_RETENTION_MS)}` });
    return ms ?? 0;
  })
  .nullable()
  .optional();

export const ZRetentionPatch = z
  .strictObject({
    messagePayloadRetention: ZDuration.meta({
      description: "How long this account's message payloads and attempts' response bodies are kept (`90d`, `12h`, `30m`, `45s`; 1s to 3650d); null: the deployment's default.",
      example: '30d',
    }),
    messageRetention: ZDuration.meta({
      description: "How long this account's messages, deliveries and attempts are kept; null: the deployment's default. Payloads are kept no longer than their messages.",
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
sameShape<TAccountRetention, z.output<typeof ZAccountRetention>>(true);

const PURGE =
  "The purge keeps the skeleton: a payload becomes `{\"purged\": {at, retention, size, sha256}}`, an attempt's response body is emptied (`responsePurged`); " +
  'after the message retention the message, its deliveries and attempts go. An unresolved delivery keeps its bodies (up to the deployment\'s hold).';

export const RETENTION_OPERATIONS = [
  op('GET /v1/retention', {
    id: 'getRetention', tag: 'Retention', summary: "This account's retention", ext: true, auth: 'bearer', response: ZAccountRetention,
    description: `How long the service keeps this account's message payloads and messages: the values in effect, the account's own, and the deployment's defaults. ${PURGE}`,
  }),
  op('PATCH /v1/retention', {
    id: 'updateRetention', tag: 'Retention', summary: "Change this account's retention", ext: true, auth: 'bearer', body: ZRetentionPatch, response: ZAccountRetention,
    description:
      'Sets either value for this account (a field left out stays as it is; null returns it to the default); the purge applies it from its next pass. ' +
      `A bad duration, or payloads that would outlive their messages, is a 400 naming the field, and nothing changes. ${PURGE}`,
  }),
];
