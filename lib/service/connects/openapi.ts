import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, ZMetadataOut, ZUuidOut, sameShape } from '@/lib/openapi/shared-schemas';
import type { TConnectJson } from './connect-json';
import { ZCreateConnect } from './schemas';

// The Connect operations of /openapi.json: one op(...) per route, beside its schemas.

export const ZConnect = z
  .object({
    id: z
      .string()
      .regex(/^test_[0-9A-Za-z]{27}$/)
      .meta({ description: 'The CID: `test_` + a KSUID (the embedded service is a sandbox).' }),
    nonprofitId: ZUuidOut,
    name: z.string(),
    active: z.boolean(),
    metadata: ZMetadataOut,
    createdAt: ZInstantOut,
    updatedAt: ZInstantOut,
  })
  .meta({ id: 'Connect' });
sameShape<TConnectJson, z.output<typeof ZConnect>>(true);

export const ZConnectWithKey = ZConnect.extend({
  apiKey: z
    .string()
    .regex(/^sk_test_[0-9A-Za-z]{32}$/)
    .meta({ description: 'Send it as `x-service-api-key` for the grant operations.' }),
}).meta({ id: 'ConnectWithKey' });
sameShape<TConnectJson & { apiKey: string }, z.output<typeof ZConnectWithKey>>(true);

export const CONNECT_OPERATIONS = [
  op('POST /v1/connects', {
    id: 'createConnect',
    idempotent: true,
    tag: 'Connects',
    summary: "Create (or get) the account's Connect for a nonprofit",
    auth: 'bearer',
    scope: 'create:connects',
    query: z.object({ nonprofit: z.string().meta({ description: 'The nonprofit id (a UUID).' }) }),
    body: ZCreateConnect.meta({ id: 'CreateConnect', description: 'EXT: name and metadata. An empty body is fine.' }),
    bodyOptional: true,
    status: 201,
    response: ZConnect,
    errors: [404],
    responseHeaders: z.object({ location: z.string().meta({ description: '/v1/connects/{id}' }) }),
    description: 'One Connect per nonprofit per account: 201 with the existing one on a repeat. The API key is only in Get Connect.',
  }),
  op('GET /v1/connects/{id}', {
    id: 'getConnect',
    tag: 'Connects',
    summary: 'Get a Connect with its API key',
    auth: 'bearer',
    scope: 'read:connects',
    path: z.object({ id: z.string().meta({ description: 'The CID.' }) }),
    response: ZConnectWithKey,
  }),
];
