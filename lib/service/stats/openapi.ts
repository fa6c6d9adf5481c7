import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, page, sameShape } from '@/lib/openapi/shared-schemas';
import { STATS_WINDOWS, ZStatsQuery, type TStatsWindow, type TWebhookStatsJson } from './schemas';

// The stats operation of /openapi.json (EXT GET /v1/webhooks/{id}/stats).

const ZMs = z.number().nonnegative().nullable().meta({ description: 'Milliseconds; null without attempts.' });
const ZPercentiles = { p50: ZMs, p95: ZMs, p99: ZMs };

export const ZWebhookStats = z
  .strictObject({
    webhookId: z.string().regex(/^ep_[0-9A-Za-z]{27}$/),
    window: z.enum(Object.keys(STATS_WINDOWS) as [TStatsWindow, ...TStatsWindow[]]),
    from: ZInstantOut,
    until: ZInstantOut,
    bucketSeconds: z.int().positive(),
    attempts: z.int(),
    successes: z.int(),
    failures: z.int(),
    successRate: z.number().min(0).max(1).nullable().meta({ description: 'successes / attempts over the window; null without attempts.' }),
    responseTimeMs: z.strictObject(ZPercentiles).meta({
      description:
        "The window's attempts, failures and timeouts included; from latency buckets 25 % wide, each reported at its geometric middle: within 12 % of the exact value.",
    }),
    backlog: z.strictObject({
      pending: z.int(),
      sending: z.int(),
      oldestPendingAt: ZInstantOut.nullable(),
      oldestPendingAgeSeconds: z.number().nullable(),
      nextAttemptAt: ZInstantOut.nullable(),
    }),
    lastSuccessAt: ZInstantOut.nullable(),
    lastAttemptAt: ZInstantOut.nullable(),
    failureStreak: z.int().meta({ description: 'Attempts since the last success (all failed); 0 when the newest succeeded.' }),
    lastFailureAt: ZInstantOut.nullable().meta({ description: 'The newest failed attempt in the window; null when none failed.' }),
    recovery: z
      .strictObject({ since: ZInstantOut, attempts: z.int().min(1).max(100) })
      .nullable()
      .meta({
        description:
          'The window had a failed attempt and every attempt since succeeded: the first of those, and how many there were (counted up to 100). Null otherwise.',
      }),
    failingSince: ZInstantOut.nullable(),
    disabled: z.boolean(),
    disabledReason: z.string().nullable(),
    disabledAt: ZInstantOut.nullable(),
    buckets: z.array(z.strictObject({ start: ZInstantOut, end: ZInstantOut, attempts: z.int(), successes: z.int(), failures: z.int(), ...ZPercentiles })).meta({
      description:
        'Epoch-aligned UTC buckets covering the window (which starts at the first one’s start); the last is partial; their counts add up to the totals.',
    }),
  })
  .meta({ id: 'WebhookStats' });
sameShape<TWebhookStatsJson, z.output<typeof ZWebhookStats>>(true);

export const STATS_OPERATIONS = [
  op('GET /v1/webhooks/stats', {
    id: 'listWebhookStats',
    tag: 'Webhooks',
    summary: "Every webhook's delivery statistics in one call, a page of webhooks at a time",
    ext: true,
    auth: 'bearer',
    paged: true,
    query: ZStatsQuery,
    response: page(ZWebhookStats, 'WebhookStatsPage'),
  }),
  op('GET /v1/webhooks/{id}/stats', {
    id: 'getWebhookStats',
    tag: 'Webhooks',
    summary: 'Delivery statistics over a window, with buckets for a chart',
    ext: true,
    auth: 'bearer',
    path: z.object({ id: z.string().meta({ description: 'The webhook id (`ep_…`).' }) }),
    query: ZStatsQuery,
    response: ZWebhookStats,
  }),
];
