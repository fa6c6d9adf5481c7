import { z } from 'zod';
import { ZMetadata } from '@/lib/service/connects/schemas';
import { DAF_FUNDS, GRANT_MAX_AMOUNT, GRANT_MIN_AMOUNT, findFund } from './constants';

const ZName = z.string().trim().min(1, { message: 'is required' }).max(100, { message: 'must be at most 100 characters' });

/** A grant request: the body of POST /v1/grants, and what the Connect page builds from its form. */
export const ZCreateGrant = z.strictObject({
  amount: z
    .int({ message: 'must be a whole number of cents' })
    .min(GRANT_MIN_AMOUNT, { message: `must be at least ${GRANT_MIN_AMOUNT} cents` })
    .max(GRANT_MAX_AMOUNT, { message: `must be at most ${GRANT_MAX_AMOUNT} cents` }),
  fundId: z.string().refine((id) => findFund(id) !== undefined, {
    message: `must be one of ${DAF_FUNDS.map((f) => f.id).join(', ')}`,
  }),
  firstName: ZName,
  lastName: ZName,
  email: z.email({ message: 'must be a valid email address' }).max(254),
  phone: z
    .string()
    .regex(/^\d{10,15}$/, { message: 'must be 10 to 15 digits only' })
    .nullish(),
  note: z.string().trim().max(1000, { message: 'must be at most 1000 characters' }).nullish(),
  coveredFees: z.boolean({ message: 'must be true or false' }).default(false),
  metadata: ZMetadata.optional(),
});

export type TCreateGrant = z.output<typeof ZCreateGrant>;
