'use server';

import { randomBytes } from 'node:crypto';
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getReceiver, isSecretStandIn, isValidSecret, resolveSecretStandIns } from '@/lib/console/receivers';
import { createReceiverAudited, requireReceiver, updateReceiverAudited } from '@/lib/console/receivers/audited-receivers';
import { secretWarnings } from '@/lib/console/receivers/secret-warnings';
import { ID_PREFIX } from '@/lib/constants';
import { errorFields, staffFormAction } from '@/lib/console/staff/staff-action';
import { ApiError } from '@/lib/http/errors';

// The receivers' forms (operators): a receiver created (then its page), its settings saved (with
// the webhooks delivering to it whose secret it now lacks). Each audited in lib/console/receivers.

const ZSecret = z.string().trim().refine(isValidSecret, { message: 'A signing secret is whsec_ followed by base64, as the webhook shows it.' });
// On the settings form a non-admin sees each secret as its stand-in; sent back, it keeps that secret.
const ZSecretOrStandIn = z
  .string()
  .trim()
  .refine((s) => isValidSecret(s) || isSecretStandIn(s), { message: 'A signing secret is whsec_ followed by base64, as the webhook shows it.' });
const text = (form: FormData, keys: string[]) => Object.fromEntries(keys.map((k) => [k, String(form.get(k) ?? '')]));

const ZCreate = z.object({
  name: z.string().trim().min(1, { message: 'Give it a name.' }).max(100, { message: 'At most 100 characters.' }),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^([a-z0-9][a-z0-9-]{2,62})?$/, { message: '3–63 of a-z, 0-9 and -, starting with a letter or digit; or leave empty for a random one.' }),
  secret: z.union([z.literal(''), ZSecret]),
  generateSecret: z.boolean(),
});

export const createReceiverAction = staffFormAction(
  { role: 'operator', read: (form) => ({ ...text(form, ['name', 'slug', 'secret']), generateSecret: form.get('generateSecret') === 'on' }), input: ZCreate },
  async ({ staff, input: { name, slug, secret, generateSecret } }) => {
    if (slug && (await getReceiver(slug))) return { fieldErrors: { slug: 'This slug is taken.' } };
    const receiver = await createReceiverAudited(staff, {
      name,
      slug: slug || undefined,
      secret: secret || (generateSecret ? `${ID_PREFIX.webhookSecret}${randomBytes(32).toString('base64')}` : undefined),
    });
    return `/receivers/${receiver.id}`;
  },
);

const ZUpdate = z.object({
  id: z.string().min(1),
  name: z.string().trim().min(1, { message: 'Give it a name.' }).max(100, { message: 'At most 100 characters.' }),
  secret1: z.union([z.literal(''), ZSecretOrStandIn]),
  secret2: z.union([z.literal(''), ZSecretOrStandIn]),
  responseStatus: z.coerce
    .number({ message: 'A number.' })
    .int({ message: 'A whole number.' })
    .min(200, { message: 'Between 200 and 599.' })
    .max(599, { message: 'Between 200 and 599.' }),
  responseBody: z.string().max(65536, { message: 'At most 64 KiB.' }),
  responseDelayMs: z.coerce
    .number({ message: 'A number.' })
    .int({ message: 'A whole number of milliseconds.' })
    .min(0, { message: 'Between 0 and 30000 ms.' })
    .max(30000, { message: 'Between 0 and 30000 ms (30 s).' }),
  /** the second submission, after the form showed what the new secrets would break */
  confirmed: z.boolean(),
});

export const updateReceiverAction = staffFormAction(
  {
    role: 'operator',
    read: (form) => ({
      ...text(form, ['id', 'name', 'secret1', 'secret2', 'responseStatus', 'responseBody', 'responseDelayMs']),
      confirmed: form.get('confirmed') === 'secrets',
    }),
    input: ZUpdate,
    // Field errors (a stand-in this receiver no longer holds) show by their fields alone.
    onError: (error) => {
      const fieldErrors = errorFields(error);
      return Object.keys(fieldErrors).length ? { fieldErrors } : { error };
    },
  },
  async ({ staff, api, input: { id, name, secret1, secret2, responseStatus, responseBody, responseDelayMs, confirmed } }) => {
    const before = await requireReceiver(id).catch(() => {
      throw new ApiError('not_found', 'This receiver no longer exists.');
    });
    const held = (value: string, field: string) => (value ? resolveSecretStandIns([value], before.secrets, field)[0] : '');
    const secrets = [...new Set([held(secret1, 'secret1'), held(secret2, 'secret2')].filter(Boolean))];
    // A change of secrets that its webhooks do not sign with is said before it is saved.
    if (!confirmed && !sameSet(secrets, before.secrets)) {
      const mismatches = await secretWarnings(staff.environment, api, { ...before, secrets });
      if (mismatches.length) return { confirm: mismatches.map((w) => w.message) };
    }
    const updated = await updateReceiverAudited(staff, before, { name, secrets, responseStatus, responseBody, responseDelayMs });
    const warnings = await secretWarnings(staff.environment, api, updated);
    revalidatePath(`/receivers/${id}`);
    return {
      ok: true,
      notice: `Saved. The receiver now answers ${responseStatus}${responseDelayMs ? ` after ${responseDelayMs} ms` : ''}.`,
      warnings: warnings.map((w) => w.message),
    };
  },
);

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
