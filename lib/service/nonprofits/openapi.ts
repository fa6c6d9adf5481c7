import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, ZUuidOut, page, sameShape } from '@/lib/openapi/shared-schemas';
import type { TListedNonprofit } from './list-nonprofits';
import type { TNonprofitJson } from './nonprofit-json';
import { ZCreateNonprofit } from './schemas';

// The nonprofit operations of /openapi.json: one op(...) per route, beside its schemas.

export const ZNonprofit = z
  .object({
    id: ZUuidOut,
    ein: z.string().regex(/^\d{9}$/),
    name: z.string().meta({ description: 'Defaults to `Nonprofit {ein}`.' }),
    preferredName: z.string().nullable().meta({ description: 'The name it goes by; null when unset.' }),
    website: z.string().nullable().meta({ description: 'An absolute https URL; null when unset.' }),
    createdAt: ZInstantOut,
    updatedAt: ZInstantOut,
  })
  .meta({ id: 'Nonprofit', description: 'A registered nonprofit. The contact user is stored for support, never returned.' });
sameShape<TNonprofitJson, z.output<typeof ZNonprofit>>(true);

export const ZListedNonprofit = ZNonprofit.extend({
  connect: z
    .object({
      id: z.string().meta({ description: 'The CID.' }),
      name: z.string(),
      active: z.boolean(),
      createdAt: ZInstantOut,
    })
    .nullable()
    .meta({ description: "The calling account's Connect for this nonprofit; null when it has none." }),
}).meta({ id: 'ListedNonprofit' });
sameShape<TListedNonprofit, z.output<typeof ZListedNonprofit>>(true);

export const NONPROFIT_OPERATIONS = [
  op('GET /v1/nonprofits', {
    id: 'listNonprofits',
    tag: 'Nonprofits',
    summary: 'List and search the registered nonprofits',
    ext: true,
    auth: 'bearer',
    scope: 'read:nonprofits',
    paged: true,
    query: z.object({
      q: z.string().max(100).optional().meta({
        description:
          "Digits (a dash allowed): EINs starting with them; `test_…`: the Connect with that CID or CIDs starting so; anything else: a part of the nonprofit's name, its preferred name or its Connect's name, case-insensitive. A page token belongs to its search.",
        example: '530196605',
      }),
    }),
    response: page(ZListedNonprofit, 'NonprofitPage'),
    description: "Every registered nonprofit (newest first), each with the calling account's Connect for it or null.",
  }),
  op('POST /v1/nonprofits', {
    id: 'createNonprofit',
    idempotent: true,
    tag: 'Nonprofits',
    summary: 'Register a nonprofit',
    auth: 'bearer',
    scope: 'create:nonprofits',
    body: ZCreateNonprofit.meta({ id: 'CreateNonprofit' }),
    status: 201,
    response: ZNonprofit,
    responseHeaders: z.object({ location: z.string().meta({ description: '/v1/nonprofit/{ein}' }) }),
    description:
      "201 on first creation and when the EIN is already registered (then the existing record, unchanged). `name` is an extension; `preferredName` and `website` are the public SDK's.",
  }),
  op('GET /v1/nonprofit/{ein}', {
    id: 'getNonprofit',
    tag: 'Nonprofits',
    summary: 'Get a nonprofit by EIN',
    auth: 'bearer',
    scope: 'read:nonprofits',
    path: z.object({ ein: z.string().meta({ description: '9 digits, no dash.', example: '530196605' }) }),
    response: ZNonprofit,
  }),
];
