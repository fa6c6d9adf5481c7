import { z } from 'zod';

// Prefixes the IRS has never assigned to an EIN (the first two digits).
export const NEVER_ASSIGNED_EIN_PREFIXES = ['00', '07', '08', '09', '17', '18', '19', '28', '29', '49', '69', '70', '78', '79', '89', '96', '97'] as const;

export const EIN_PATTERN = /^\d{9}$/;

export const ZEin = z
  .string({ message: 'must be a string of 9 digits' })
  .regex(EIN_PATTERN, { message: 'must be exactly 9 digits, no dash' })
  .refine((ein) => !(NEVER_ASSIGNED_EIN_PREFIXES as readonly string[]).includes(ein.slice(0, 2)), {
    message: 'starts with a prefix the IRS never assigns',
  });

const ZPersonName = z.string().trim().min(1, { message: 'must not be empty' }).max(100, { message: 'must be at most 100 characters' });

export const ZContactUser = z.strictObject({
  email: z.email({ message: 'must be a valid email address' }).max(254),
  phone: z
    .string()
    .regex(/^\d{10,15}$/, { message: 'must be 10 to 15 digits only' })
    .optional(),
  firstName: ZPersonName.optional(),
  lastName: ZPersonName.optional(),
});

export const PREFERRED_NAME_MAX = 200;
export const WEBSITE_MAX = 2048;

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The nonprofit's website: an absolute https URL (what the public SDK documents). */
export const ZWebsite = z
  .string({ message: 'must be a string' })
  .trim()
  .max(WEBSITE_MAX, { message: `must be at most ${WEBSITE_MAX} characters` })
  .refine(isHttpsUrl, { message: 'must be an absolute https URL, e.g. https://example.org' })
  .meta({ format: 'uri', pattern: '^https://' });

export const ZCreateNonprofit = z.strictObject({
  ein: ZEin,
  user: ZContactUser,
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(100, { message: 'must be at most 100 characters' }).optional(),
  // The public SDK's optional fields; null is the same as leaving them out.
  preferredName: z
    .string({ message: 'must be a string' })
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(PREFERRED_NAME_MAX, { message: `must be at most ${PREFERRED_NAME_MAX} characters` })
    .nullish(),
  website: ZWebsite.nullish(),
});

export type TCreateNonprofit = z.output<typeof ZCreateNonprofit>;
