import { z } from 'zod';
import { GRANT_STATUSES } from '@/lib/constants';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, ZMetadataOut, ZUuidOut, page, sameShape } from '@/lib/openapi/shared-schemas';
import type { TFundJson } from '@/lib/service/funds/list-funds';
import { DAF_FUNDS } from './constants';
import type { TGrantJson } from './grant-json';
import { ZCreateGrant } from './schemas';
import { GRANT_STREAM_PAGE, ZGrantDeliveryFilters, type TGrantDeliveryJson } from './stream-grant-deliveries';

// The grants and funds operations of /openapi.json: one op(...) per route, beside its schemas.

// Strict: it is also the `data` of a delivered event (a request body), so input and output read alike.
export const ZGrant = z
  .strictObject({
    id: ZUuidOut,
    connectId: z.string().meta({ description: 'The Connect (CID) the grant was given through.', example: 'test_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE' }),
    nonprofitId: ZUuidOut,
    trackingId: z
      .string()
      .regex(/^GC-[A-Z0-9]{6}$/)
      .meta({ description: 'A short code a donor can read aloud.', example: 'GC-7KQ2M9' }),
    workflowSessionId: z
      .string()
      .regex(/^wfs_[A-Za-z0-9]+$/)
      .meta({
        description:
          "The Connect-flow session that created the grant: the donor's visit to `/connect/{cid}` (one per rendered form; a double-submitted form keeps it). A grant created through `POST /v1/grants` gets a session of its own (`wfs_` + KSUID), one per grant; grants created before this field existed carry `wfs_` + their id's hex digits.",
        example: 'wfs_2Q3sXQ5mHk1bW8nJ3cR7tYvLd0A',
      }),
    amount: z.int().meta({ description: 'Integer cents.', example: 15000 }),
    feeAmount: z.int().meta({ description: 'The processing fee in cents (2.9 %).', example: 435 }),
    coveredFees: z.boolean(),
    status: z.enum(GRANT_STATUSES),
    fundId: z.string().meta({ example: 'fidelity-charitable' }),
    fundName: z.string().meta({ example: 'Fidelity Charitable' }),
    firstName: z.string().meta({ example: 'Jane' }),
    lastName: z.string().meta({ example: 'Donor' }),
    email: z.string().meta({ example: 'jane.donor@example.org' }),
    phone: z.string().nullable().meta({ example: '5555550123' }),
    note: z.string().nullable().meta({ example: 'For the reading room' }),
    metadata: ZMetadataOut,
    createdAt: ZInstantOut,
    updatedAt: ZInstantOut,
  })
  .meta({ id: 'Grant' });
sameShape<TGrantJson, z.output<typeof ZGrant>>(true);

export const ZFund = z
  .object({
    id: z.string().meta({ description: "What a grant's `fundId` names.", example: DAF_FUNDS[0].id }),
    name: z.string().meta({ example: DAF_FUNDS[0].name }),
  })
  .meta({ id: 'Fund', description: 'A donor-advised fund sponsor a grant may come from.' });
sameShape<TFundJson, z.output<typeof ZFund>>(true);

const ZGrantDelivery = z
  .object({
    grantId: ZUuidOut,
    trackingId: z.string(),
    createdAt: ZInstantOut,
    amount: z.int().meta({ description: 'Integer cents.' }),
    feeAmount: z.int().meta({ description: 'The processing fee in cents, as the Grant carries it.' }),
    coveredFees: z
      .boolean()
      .meta({ description: 'Whether the donor added the fee on top (the nonprofit receives `amount` whole); else the fee comes out of `amount`.' }),
    status: z.enum(GRANT_STATUSES).meta({ description: "The grant's status now, as the Grant carries it." }),
    fundId: z.string(),
    fundName: z.string(),
    nonprofitId: ZUuidOut,
    ein: z.string(),
    nonprofitName: z.string().meta({ description: 'The name it goes by (its preferred name, else its legal one).' }),
    connectId: z.string(),
    donor: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
    messageId: z.string().meta({ description: 'The grant.succeeded message (`msg_…`), the webhook-id every webhook got.' }),
    messageTimestamp: ZInstantOut,
    deliveries: z
      .array(
        z.object({
          webhookId: z.string(),
          status: z.enum(['pending', 'sending', 'success', 'failed']),
          attemptCount: z.int(),
          lastResponseStatusCode: z.int().nullable().meta({ description: "The newest attempt's response code (0: no response); null before the first." }),
        }),
      )
      .meta({ description: 'One per webhook the message was queued for (none subscribed: empty).' }),
  })
  .meta({ id: 'GrantDelivery', description: 'One line of the grant delivery stream.' });
sameShape<TGrantDeliveryJson, z.output<typeof ZGrantDelivery>>(true);

const ZGrantPath = z.object({ id: z.string().meta({ description: 'The grant id (a UUID).' }) });
const ZIdempotencyKey = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .meta({ description: 'The same key within 24 h answers the first response again, with Idempotent-Replayed: true.' }),
});

export const GRANT_OPERATIONS = [
  op('GET /v1/grants', {
    id: 'listGrants',
    tag: 'Grants',
    summary: "List a Connect's grants",
    auth: 'bearer+apiKey',
    scope: 'read:grants',
    paged: true,
    response: page(ZGrant, 'GrantPage'),
  }),
  op('POST /v1/grants', {
    id: 'createGrant',
    tag: 'Grants',
    summary: 'Create a grant',
    ext: true,
    auth: 'bearer+apiKey',
    scope: 'create:grants',
    headers: ZIdempotencyKey,
    body: ZCreateGrant,
    status: 201,
    response: ZGrant,
    errors: [409],
    responseHeaders: z.object({ location: z.string().meta({ description: '/v1/grants/{id}' }), 'idempotent-replayed': z.literal('true').optional() }),
    description: 'Emits `grant.succeeded`. The same code path as the donor Connect page.',
  }),
  op('GET /v1/grants/deliveries', {
    id: 'streamGrantDeliveries',
    tag: 'Grants',
    summary: "Stream a range's grants with their deliveries (NDJSON)",
    ext: true,
    auth: 'bearer',
    scope: 'read:grants',
    query: ZGrantDeliveryFilters,
    response: ZGrantDelivery,
    responseType: 'application/x-ndjson',
    description:
      'Every grant of the account made in [`after`, `before`) (at most 31 days; `nonprofit`: one nonprofit, by id or EIN), oldest first, one JSON object a line: ' +
      "the grant with its nonprofit and donor, its `grant.succeeded` message, and that message's delivery to each webhook it was queued for. " +
      `Read ${GRANT_STREAM_PAGE} at a time, each page only once the reader has taken the one before. A failure part-way cuts the connection. What the console's daily reconciliation reads.`,
  }),
  op('GET /v1/grants/{id}', {
    id: 'getGrant',
    tag: 'Grants',
    summary: 'Get a grant',
    ext: true,
    auth: 'bearer+optionalApiKey',
    scope: 'read:grants',
    path: ZGrantPath,
    response: ZGrant,
    description: "The token alone is enough (the public SDK's `grants.get`): a grant of the token's account. With an API key, also of that Connect.",
  }),
  op('GET /v1/funds', {
    id: 'listFunds',
    tag: 'Grants',
    summary: 'List the funds a grant may come from',
    ext: true,
    auth: 'bearer',
    paged: true,
    response: page(ZFund, 'FundPage'),
  }),
];
