import { z } from 'zod';
import { EVENT_TYPES, MESSAGE_STATUSES } from '@/lib/constants';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, page, sameShape } from '@/lib/openapi/shared-schemas';
import { ZAttempt, ZAttemptWithResponse, ZRetriesStopped } from '@/lib/service/webhooks/openapi';
import type { TAccountMessageDetailJson, TAccountMessageJson, TMessageDeliveryJson } from '@/lib/service/webhooks/webhook-json';
import type { TAccountMessagePage } from './list-account-messages';
import { ZAccountMessageFilters, ZAccountMessageQuery } from './schemas';

// The account-wide message operations of /openapi.json (EXT): one op(...) per route.

export const ZAccountMessage = z
  .object({
    id: z.string().regex(/^msg_[0-9A-Za-z]{27}$/),
    eventId: z.string().regex(/^evt_[0-9A-Za-z]{27}$/),
    eventType: z.enum(EVENT_TYPES),
    timestamp: ZInstantOut,
    tags: z.array(z.string()),
    excerpt: z
      .string()
      .optional()
      .meta({ description: 'With a payload filter: the part of the payload around the match (the object holding the key, or the words).' }),
    webhookIds: z
      .array(z.string().regex(/^ep_[0-9A-Za-z]{27}$/))
      .optional()
      .meta({ description: 'With `withWebhooks=true`: the webhooks the message was queued for, by id (none when nothing was subscribed).' }),
  })
  .meta({ id: 'AccountMessage' });
sameShape<TAccountMessageJson, z.output<typeof ZAccountMessage>>(true);

export const ZMessageDelivery = z
  .object({
    webhookId: z.string().regex(/^ep_[0-9A-Za-z]{27}$/),
    status: z.enum(MESSAGE_STATUSES),
    nextAttempt: ZInstantOut.nullable(),
    attemptCount: z.int(),
    lastAttempt: ZAttempt.nullable(),
    retriesStopped: ZRetriesStopped,
    recoverRunId: z.string().nullable().meta({
      description:
        'EXT: the recover or replay-missing run that last queued this delivery (`rcvr_…`; GET …/recover/{runId} or …/replay-missing/{runId} by its kind); null when only the schedule sent it.',
    }),
  })
  .meta({ id: 'MessageDelivery', description: "One webhook's delivery of a message." });
sameShape<TMessageDeliveryJson, z.output<typeof ZMessageDelivery>>(true);

export const ZAccountMessageDetail = ZAccountMessage.extend({
  payload: z.record(z.string(), z.unknown()).meta({
    description:
      'The event exactly as delivered. Once retention purged it (MESSAGE_PAYLOAD_RETENTION), its tombstone `{"purged": {at, retention, size, sha256}}`; ' +
      'once a donor erasure replaced it (POST /v1/erasures), `{"erased": {at, sha256}}`.',
  }),
  deliveries: z
    .array(
      ZMessageDelivery.extend({
        lastAttempt: z
          .union([ZAttempt, ZAttemptWithResponse])
          .nullable()
          .meta({ description: 'The newest attempt; with `withAttempts=true`, with its response body.' }),
        attempts: z
          .array(ZAttempt)
          .optional()
          .meta({ description: 'Only with `withAttempts=true`: every attempt to this webhook, oldest first, without response bodies.' }),
      }),
    )
    .meta({ description: 'None when no webhook was subscribed.' }),
}).meta({ id: 'AccountMessageDetail' });
sameShape<Omit<TAccountMessageDetailJson, 'payload' | 'deliveries'>, Omit<z.output<typeof ZAccountMessageDetail>, 'payload' | 'deliveries'>>(true);

/** The listing's page; a payload search that ran out of its time budget says how far back it looked. */
export const ZAccountMessagePage = page(ZAccountMessage, 'AccountMessagePage')
  .extend({
    partial: z.literal(true).optional().meta({
      description:
        'With a payload filter: the search stopped after its time budget (`SEARCH_BUDGET_MS`, 1 s by default) before reaching `after`. `results` hold every match from `searchedUntil` on (at most `pageLimit`), none older.',
    }),
    searchedUntil: ZInstantOut.optional().meta({
      description:
        'With `partial`: the instant the search looked back to. The same request with `before` set to it goes on from there, without repeating or missing a message.',
    }),
  })
  .meta({ id: 'AccountMessagePage', description: "One page of the account's messages, newest first." });
sameShape<TAccountMessagePage, z.output<typeof ZAccountMessagePage>>(true);

export const MESSAGE_OPERATIONS = [
  op('GET /v1/messages', {
    id: 'listAccountMessages',
    tag: 'Messages',
    summary: "List the account's messages",
    ext: true,
    auth: 'bearer',
    paged: true,
    query: ZAccountMessageFilters,
    response: ZAccountMessagePage,
    description:
      "Every message, whether or not a webhook was subscribed; `tag` finds a grant's (`grant:{id}`, `tracking:{trackingId}`, `donor:{email}`, `name:{first last}` in lower case, `connect:{cid}`). " +
      'Payload search: `payloadPath` + `payloadEquals` finds messages whose payload holds that JSON value at that dotted path (`data.amount` = `15000`, `data.fund.id` = `"fidelity-charitable"`, compared as JSON), ' +
      "`payloadText` those whose strings and numbers hold these words in this order (any case), within one value or across a grant's `data.firstName` and `data.lastName` read as one name; either needs `after`, at most 31 days before `before` (or now), and each result then carries an `excerpt`. " +
      'A payload search runs newest first within a time budget (`SEARCH_BUDGET_MS`): when it runs out before `after`, the page says `partial: true` and `searchedUntil`, and `before=<searchedUntil>` goes on from there. ' +
      '`withWebhooks=true`: each result lists the webhooks it was queued for (`webhookIds`), without a call per message.',
  }),
  op('GET /v1/messages/{id}', {
    id: 'getAccountMessage',
    tag: 'Messages',
    summary: 'Get a message by msg_ or evt_ id, with its deliveries',
    ext: true,
    auth: 'bearer',
    path: z.object({ id: z.string().meta({ description: 'A message id (`msg_…`) or event id (`evt_…`).' }) }),
    query: ZAccountMessageQuery,
    response: ZAccountMessageDetail,
    description:
      "`withAttempts=true`: each delivery with all its attempts and its newest attempt's response, in two queries — what a case reads, without a call per webhook.",
  }),
];
