import { z } from 'zod';
import { ID_PREFIX } from '@/lib/constants';
import { ksuid } from '@/lib/ids';
import { ZCreateGrant, type TCreateGrant } from '@/lib/service/grants/schemas';

// The donor form of /connect/{cid}: a plain HTML form (works without JavaScript), its field
// names, its parsing into a grant request, and what the page shows when a field is wrong.

export const PRESET_AMOUNTS = [25, 50, 100, 250, 500] as const;

/** Keeps the donor's input across the redirect back to the form (path-scoped, short-lived, httpOnly). */
export const GIVE_FORM_COOKIE = 'gc_give_form';
export const GIVE_FORM_COOKIE_MAX_AGE = 600;

export const ZGiveFormValues = z.object({
  fundId: z.string().max(100).default(''),
  amount: z.string().max(40).default(''),
  firstName: z.string().max(200).default(''),
  lastName: z.string().max(200).default(''),
  email: z.string().max(300).default(''),
  phone: z.string().max(40).default(''),
  note: z.string().max(1000).default(''),
  coverFees: z.boolean().default(false),
});
export type TGiveFormValues = z.output<typeof ZGiveFormValues>;

/** Field-level messages, chosen by code: the URL carries codes, never text a link could forge. */
export const GIVE_FORM_ERRORS = {
  fundId: 'Choose the donor-advised fund the grant comes from.',
  amount: 'Enter an amount from $1 to $1,000,000, with at most two decimals.',
  firstName: 'Enter your first name (up to 100 characters).',
  lastName: 'Enter your last name (up to 100 characters).',
  email: 'Enter a valid email address.',
  phone: 'Enter a phone number of 10 to 15 digits, or leave it empty.',
  note: 'Keep the note to 1,000 characters or fewer.',
  resubmitted: 'This form was already submitted with other details. Please review them and submit again.',
  unreadable: 'The form could not be read. Please fill it in and submit it again.',
  tooLarge: 'The form was too large to send. Please shorten the note and submit it again.',
} as const;
export type TGiveFormError = keyof typeof GIVE_FORM_ERRORS;

export function isGiveFormError(code: string): code is TGiveFormError {
  return Object.hasOwn(GIVE_FORM_ERRORS, code);
}

/** "$1,250.50" → 125050 cents; null when it is not an amount of dollars. */
export function dollarsToCents(text: string): number | null {
  const cleaned = text.replace(/[\s$,]/g, '');
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

export type TParsedGiveForm =
  { ok: true; input: TCreateGrant; formToken: string | null; values: TGiveFormValues } | { ok: false; errors: TGiveFormError[]; values: TGiveFormValues };

/** The submitted form as a grant request, or the codes of the wrong fields. */
export function parseGiveForm(form: URLSearchParams): TParsedGiveForm {
  const text = (name: string) => (form.get(name) ?? '').trim();
  const values: TGiveFormValues = {
    fundId: text('fundId').slice(0, 100),
    amount: (text('amount') || text('preset')).slice(0, 40),
    firstName: text('firstName').slice(0, 200),
    lastName: text('lastName').slice(0, 200),
    email: text('email').slice(0, 300),
    phone: text('phone').slice(0, 40),
    note: text('note').slice(0, 1000),
    coverFees: ['on', 'true', '1', 'yes'].includes(text('coverFees').toLowerCase()),
  };
  const cents = dollarsToCents(values.amount);
  const phoneDigits = values.phone.replace(/[\s().+-]/g, '');
  const result = ZCreateGrant.safeParse({
    amount: cents ?? -1,
    fundId: values.fundId,
    firstName: values.firstName,
    lastName: values.lastName,
    email: values.email,
    phone: phoneDigits || undefined,
    note: text('note') || undefined,
    coveredFees: values.coverFees,
  });
  if (!result.success) {
    const errors = [...new Set(result.error.issues.map((i) => String(i.path[0])))].filter(isGiveFormError);
    return { ok: false, errors: errors.length ? errors : ['amount'], values };
  }
  const token = text('formToken');
  return { ok: true, input: result.data, formToken: /^[A-Za-z0-9]{16,64}$/.test(token) ? token : null, values };
}

/** A new donor visit's form token (a KSUID, so the session ids it names sort by time). */
export function newFormToken(): string {
  return ksuid();
}

/** The workflow session a form token names: the grant created from that form carries it. */
export function workflowSessionOf(formToken: string): string {
  return `${ID_PREFIX.workflowSession}${formToken}`;
}

export function encodeFormValues(values: TGiveFormValues): string {
  return Buffer.from(JSON.stringify({ ...values, note: values.note.slice(0, 500) })).toString('base64url');
}

export function decodeFormValues(cookie: string | undefined): TGiveFormValues | null {
  if (!cookie) return null;
  try {
    const parsed = ZGiveFormValues.safeParse(JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
