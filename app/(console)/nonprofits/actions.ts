'use server';

import { redirect } from 'next/navigation';
import { z } from 'zod';
import { rememberConnect } from '@/lib/console/created-connects';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';
import { fieldErrorsOf, type TActionResult, type TFormState } from '@/app/(console)/_lib/errors';

const optional = (schema: z.ZodString) => z.union([z.literal(''), schema]).transform((v) => v || undefined);

const ZRegister = z.object({
  ein: z.string().trim().regex(/^\d{9}$/, { message: 'Exactly 9 digits, no dash.' }),
  name: optional(z.string().trim().max(200, { message: 'At most 200 characters.' })),
  email: z.email({ message: 'A valid e-mail address.' }),
  phone: optional(z.string().trim().regex(/^\d{10,15}$/, { message: '10–15 digits only.' })),
  firstName: optional(z.string().trim().max(100, { message: 'At most 100 characters.' })),
  lastName: optional(z.string().trim().max(100, { message: 'At most 100 characters.' })),
});

export async function registerNonprofitAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const { api } = await staffApi('operator');
  const raw = Object.fromEntries(['ein', 'name', 'email', 'phone', 'firstName', 'lastName'].map((k) => [k, String(formData.get(k) ?? '').trim()]));
  const nonce = (prev.nonce ?? 0) + 1;
  const parsed = ZRegister.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  const { ein, name, email, phone, firstName, lastName } = parsed.data;
  try {
    await api.createNonprofit({ ein, ...(name ? { name } : {}), user: { email, phone, firstName, lastName } });
  } catch (err) {
    const error = actionErrorInfo(err);
    // The API's field paths (ein, user.email, …) map onto this form's fields.
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.path.replace(/^user\./, ''), e.message]));
    return { error, fieldErrors, values: raw, nonce };
  }
  redirect(`/nonprofits?ein=${ein}`);
}

const ZNonprofitId = z.uuid();

/** Creates the Connect of a nonprofit (or gets the existing one: one per nonprofit per account) and shows it. */
export async function createConnectAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const { staff, api } = await staffApi('operator');
  const nonce = (prev.nonce ?? 0) + 1;
  const nonprofitId = ZNonprofitId.safeParse(formData.get('nonprofitId'));
  const ein = String(formData.get('ein') ?? '').replace(/\D/g, '').slice(0, 9);
  if (!nonprofitId.success) return { error: { message: 'Invalid nonprofit id.' }, nonce };
  let cid: string;
  try {
    const connect = await api.createConnect(nonprofitId.data);
    cid = connect.id;
    await rememberConnect(staff.environment, { id: connect.id, name: connect.name, nonprofitId: connect.nonprofitId, ein, createdAt: connect.createdAt });
  } catch (err) {
    return { error: actionErrorInfo(err), nonce };
  }
  redirect(`/nonprofits?ein=${ein}&connect=${encodeURIComponent(cid)}`);
}

/** The Connect's API key, on demand only (it is a credential). */
export async function revealApiKeyAction(connectId: string): Promise<TActionResult<{ apiKey: string }>> {
  const { api } = await staffApi('admin');
  if (!z.string().min(1).max(200).safeParse(connectId).success) return { ok: false, error: { message: 'Invalid Connect id.' } };
  try {
    const connect = await api.getConnect(connectId);
    if (!connect.apiKey) return { ok: false, error: { message: 'The API returned this Connect without an API key.' } };
    return { ok: true, data: { apiKey: connect.apiKey } };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
