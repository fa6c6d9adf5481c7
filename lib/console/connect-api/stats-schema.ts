import { z } from 'zod';

// The webhook stats extension as the console reads it (re-exported by ./schemas). Timestamps stay ISO strings.

const ZTimestamp = z.string().min(1);
const ZMs = z.number().nullable();

/** EXT GET /v1/webhooks/{id}/stats: how a webhook has been doing over a window, with buckets for a chart. */
export const ZWebhookStats = z.object({
  webhookId: z.string(),
  window: z.string(),
  from: ZTimestamp,
  until: ZTimestamp,
  bucketSeconds: z.number().int().positive(),
  attempts: z.number().int(),
  successes: z.number().int(),
  failures: z.number().int(),
  successRate: z.number().nullable(),
  responseTimeMs: z.object({ p50: ZMs, p95: ZMs, p99: ZMs }),
  backlog: z.object({
    pending: z.number().int(),
    sending: z.number().int(),
    oldestPendingAt: ZTimestamp.nullable(),
    oldestPendingAgeSeconds: z.number().nullable(),
    nextAttemptAt: ZTimestamp.nullable(),
  }),
  lastSuccessAt: ZTimestamp.nullable(),
  lastAttemptAt: ZTimestamp.nullish().transform((v) => v ?? null),
  failureStreak: z.number().int(),
  /** Absent from a service without them: then no recovery is told. */
  lastFailureAt: ZTimestamp.nullish().transform((v) => v ?? null),
  recovery: z
    .object({ since: ZTimestamp, attempts: z.number().int() })
    .nullish()
    .transform((v) => v ?? null),
  failingSince: ZTimestamp.nullish().transform((v) => v ?? null),
  disabled: z.boolean(),
  disabledReason: z.string().nullable(),
  disabledAt: ZTimestamp.nullable(),
  buckets: z.array(
    z.object({
      start: ZTimestamp,
      end: ZTimestamp,
      attempts: z.number().int(),
      successes: z.number().int(),
      failures: z.number().int(),
      p50: ZMs,
      p95: ZMs,
      p99: ZMs,
    }),
  ),
});
export type TWebhookStats = z.output<typeof ZWebhookStats>;
