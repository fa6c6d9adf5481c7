'use server';

import { z } from 'zod';
import { rememberConnect } from '@/lib/console/connects/created-connects';
import { staffAction, staffFormAction, errorFields } from '@/lib/console/staff/staff-action';
import { ApiError } from '@/lib/http/errors';

const optional = (schema: z.ZodString) => z.union([z.literal(''), schema]).transform((v) => v || undefined);

const ZRegister = z.object({
  ein: z
    .string()
    .trim()
    .regex(/^\d{9}$/, { message: 'Exactly 9 digits, no dash.' }),
  name: optional(z.string().trim().max(200, { message: 'At most 200 characters.' })),
  email: z.email({ message: 'A valid e-mail address.' }),
  phone: optional(
    z
      .string()
      .trim()
      .regex(/^\d{10,15}$/, { message: '10–15 digits only.' }),
  ),
  firstName: optional(z.string().trim().max(100, { message: 'At most 100 characters.' })),
  lastName: optional(z.string().trim().max(100, { message: 'At most 100 characters.' })),
});

export const registerNonprofitAction = staffFormAction(
  {
    role: 'operator',
    read: (form) => Object.fromEntries(['ein', 'name', 'email', 'phone', 'firstName', 'lastName'].map((k) => [k, String(form.get(k) ?? '').trim()])),
    input: ZRegister,
    // The API's field paths (ein, user.email, …) map onto this form's fields.
    onError: (error) => ({ error, fieldErrors: errorFields(error, (path) => path.replace(/^user\./, '')) }),
  },
  async ({ api, input: { ein, name, email, phone, firstName, lastName } }) => {
    await api.post('/v1/nonprofits', { body: { ein, ...(name ? { name } : {}), user: { email, phone, firstName, lastName } } });
    return `/nonprofits?ein=${ein}`;
  },
);

const ZConnectForm = z.object({ nonprofitId: z.uuid(), ein: z.string().transform((e) => e.replace(/\D/g, '').slice(0, 9)) });

/** Creates the Connect of a nonprofit (or gets the existing one: one per nonprofit per account) and shows it. */
export const createConnectAction = staffFormAction(
  {
    role: 'operator',
    read: (form) => ({ nonprofitId: String(form.get('nonprofitId') ?? ''), ein: String(form.get('ein') ?? '') }),
    input: ZConnectForm,
    invalid: 'Invalid nonprofit id.',
    onError: (error) => ({ error }),
  },
  async ({ staff, api, input: { nonprofitId, ein } }) => {
    const connect = await api.post('/v1/connects', { params: { query: { nonprofit: nonprofitId } }, body: {} });
    await rememberConnect(staff.environment, { id: connect.id, name: connect.name, nonprofitId: connect.nonprofitId, ein, createdAt: connect.createdAt });
    return `/nonprofits?ein=${ein}&connect=${encodeURIComponent(connect.id)}`;
  },
);

/** The Connect's API key, on demand only (it is a credential). */
export const revealApiKeyAction = staffAction(
  { role: 'admin', input: z.tuple([z.string().min(1).max(200)]), invalid: 'Invalid Connect id.' },
  async ({ api, input: [connectId] }): Promise<{ data: { apiKey: string } }> => {
    const connect = await api.get('/v1/connects/{id}', { params: { path: { id: connectId } } });
    if (!connect.apiKey) throw new ApiError('not_found', 'The API returned this Connect without an API key.');
    return { data: { apiKey: connect.apiKey } };
  },
);
