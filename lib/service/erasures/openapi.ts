import { z } from 'zod';
import { op } from '@/lib/openapi/operation';
import { ZInstantOut, sameShape } from '@/lib/openapi/shared-schemas';
import type { TErasureReport } from './erase-donor';

// EXT POST /v1/erasures in /openapi.json: one donor's data erased (lib/service/erasures/erase-donor.ts).

export const ZErasureBody = z
  .strictObject({
    email: z.email({ message: 'must be a valid email address' }).max(254).optional(),
    grantId: z.uuid({ message: 'must be a grant id (a UUID)' }).optional(),
    dryRun: z.boolean({ message: 'must be true or false' }).default(false).meta({ description: 'true: count what would be erased, change nothing.' }),
  })
  .refine((b) => (b.email === undefined) !== (b.grantId === undefined), { message: 'must name either email or grantId (one of them)', path: ['email'] })
  .meta({ id: 'ErasureRequest' });

const ZCount = z.object({ found: z.int(), erased: z.int() });
export const ZErasureReport = z
  .object({
    subject: z.object({
      kind: z.enum(['email', 'grantId']),
      sha256: z.string().meta({ description: 'The SHA-256 (hex) of the lower-cased e-mail or the grant id: what to log instead of it.' }),
    }),
    dryRun: z.boolean(),
    erasedAt: ZInstantOut.nullable().meta({ description: 'When this request erased something; null when it erased nothing (a dry run, or nothing left).' }),
    grants: ZCount,
    messages: ZCount,
    attempts: z.object({ erased: z.int().meta({ description: 'Attempts whose response body was emptied.' }) }),
    messageIds: z.array(z.string()).meta({ description: 'Every message of the donor, erased now or before: a receiver may erase what it stored of them.' }),
  })
  .meta({ id: 'ErasureReport' });
sameShape<TErasureReport, z.output<typeof ZErasureReport>>(true);

export const ERASURE_OPERATIONS = [
  op('POST /v1/erasures', {
    id: 'eraseDonor',
    idempotent: true,
    tag: 'Grants',
    summary: "Erase one donor's data",
    ext: true,
    auth: 'bearer',
    body: ZErasureBody,
    response: ZErasureReport,
    description:
      "Replaces every field that carries the donor — the grants' names, e-mail, phone, note and metadata, their messages' payloads and donor:/name: tags, " +
      'those messages\' attempts\' response bodies — with a tombstone `erased:<SHA-256 of what was there>` (a payload becomes `{"erased": {at, sha256}}`). ' +
      'Ids, amounts, statuses and times stay, so deliveries still reconcile. Their emptied answers say `responsePurged.reason: erasure`; a delivery still waiting for a retry ends `failed` with `retriesStopped: {reason: donor_erased, at}`. Idempotent: a second request finds the same grants and messages and erases nothing more.',
  }),
];
