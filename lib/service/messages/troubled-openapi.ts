import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { page, sameShape } from '@/lib/openapi/shared-schemas';
import { ZAttempt, ZAttemptWithResponse, ZMessage } from '@/lib/service/webhooks/openapi';
import { ZTroubledCountsQuery, ZTroubledQuery, type TTroubledCountsJson, type TTroubledMessageJson } from './troubled-messages';

// The troubled-messages operations of /openapi.json (EXT, for a problems view by index).

const ZTroubledMessage = ZMessage.extend({
  webhookId: z.string().regex(/^ep_[0-9A-Za-z]{27}$/),
  lastAttempt: z
    .union([ZAttempt, ZAttemptWithResponse])
    .nullable()
    .meta({ description: 'The newest attempt; with `withContent=true`, with its response body.' }),
  payload: z.record(z.string(), z.unknown()).optional().meta({ description: 'Only with `withContent=true`.' }),
}).meta({ id: 'TroubledMessage' });
sameShape<Omit<TTroubledMessageJson, 'payload' | 'attempts'>, Omit<z.output<typeof ZTroubledMessage>, 'payload'>>(true);

const ZTroubleCount = z.strictObject({ count: z.int().min(0), capped: z.boolean().meta({ description: 'There are more than `cap`: `count` is the cap.' }) });
const ZTroubledCounts = z
  .strictObject({
    cap: z.int(),
    results: z.array(z.strictObject({ webhookId: z.string(), failed: ZTroubleCount, retrying: ZTroubleCount })),
  })
  .meta({ id: 'TroubledCounts' });
sameShape<TTroubledCountsJson, z.output<typeof ZTroubledCounts>>(true);

export const TROUBLED_OPERATIONS = [
  op('GET /v1/webhooks/messages', {
    id: 'listTroubledMessages',
    tag: 'Messages',
    summary: "The account's failed or retrying messages across its webhooks, newest first",
    ext: true,
    auth: 'bearer',
    paged: true,
    query: ZTroubledQuery,
    response: page(ZTroubledMessage, 'TroubledMessagePage'),
    description:
      '`state=failed`: the service gave up on the (message, webhook); `state=retrying`: still pending after two or more attempts. One row per (message, webhook), ordered by the message time, then message id, then webhook id (all descending); served by an index, so a page costs the same at any volume.',
  }),
  op('GET /v1/webhooks/messages/counts', {
    id: 'countTroubledMessages',
    tag: 'Messages',
    summary: "Each webhook's failed and retrying messages, counted exactly up to a cap",
    ext: true,
    auth: 'bearer',
    query: ZTroubledCountsQuery,
    response: ZTroubledCounts,
    description: 'Webhooks with neither are left out. A count above `cap` (default 1000, at most 10000) reads as `cap` with `capped: true`.',
  }),
];
