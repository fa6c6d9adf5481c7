import { z } from 'zod';

// One line of EXT GET /v1/grants/deliveries as the console reads it (docs/api-extensions.md,
// "Grants"): a grant, its nonprofit and donor, its message, and its delivery to each webhook.

export const ZGrantDeliveryLine = z.object({
  grantId: z.string(),
  trackingId: z.string(),
  createdAt: z.string(),
  amount: z.number(),
  nonprofitId: z.string(),
  ein: z.string(),
  nonprofitName: z.string(),
  connectId: z.string(),
  donor: z.object({ firstName: z.string(), lastName: z.string(), email: z.string() }),
  messageId: z.string(),
  messageTimestamp: z.string(),
  deliveries: z.array(z.object({ webhookId: z.string(), status: z.string(), attemptCount: z.number(), lastResponseStatusCode: z.number().nullable() })),
});
export type TGrantDeliveryLine = z.output<typeof ZGrantDeliveryLine>;

/** The cheap check a line passes on the common path instead of the schema's parse (an export reads thousands). */
export function isGrantDeliveryLine(v: unknown): v is TGrantDeliveryLine {
  const o = v as TGrantDeliveryLine;
  return (
    typeof o === 'object' && o !== null && typeof o.grantId === 'string' && typeof o.trackingId === 'string' && typeof o.amount === 'number' &&
    typeof o.nonprofitId === 'string' && typeof o.messageId === 'string' && typeof o.donor === 'object' && o.donor !== null && Array.isArray(o.deliveries) &&
    o.deliveries.every((d) => typeof d?.webhookId === 'string' && typeof d.status === 'string' && typeof d.attemptCount === 'number')
  );
}
