'use server';

import { randomBytes } from 'node:crypto';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createReceiver, getReceiver, isSecretStandIn, isValidSecret, resolveSecretStandIns, updateReceiver } from '@/lib/console/receivers';
import { receiverChanges } from '@/lib/console/audit/receiver-changes';
import { ID_PREFIX } from '@/lib/constants';
import { requireRole } from '@/lib/console/staff/session';
import { fieldErrorsOf, type TFormState } from '@/app/(console)/_lib/errors';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';
import { connectApi } from '@/lib/console/connect-api';
import { secretWarnings } from './[id]/secret-warnings';

const ZSecret = z.string().trim().refine(isValidSecret, { message: 'A signing secret is whsec_ followed by base64, as the webhook shows it.' });
// On the settings form a non-admin sees each secret as its stand-in; sent back, it keeps that secret.
const ZSecretOrStandIn = z.string().trim().refine((s) => isValidSecret(s) || isSecretStandIn(s), { message: 'A signing secret is whsec_ followed by base64, as the webhook shows it.' });

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

export async function createReceiverAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const staff = await requireRole('operator');
  const raw = {
    name: String(formData.get('name') ?? ''),
    slug: String(formData.get('slug') ?? ''),
    secret: String(formData.get('secret') ?? ''),
    generateSecret: formData.get('generateSecret') === 'on',
  };
  const nonce = (prev.nonce ?? 0) + 1;
  const parsed = ZCreate.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  const { name, slug, generateSecret } = parsed.data;
  const secret = parsed.data.secret || (generateSecret ? `${ID_PREFIX.webhookSecret}${randomBytes(32).toString('base64')}` : undefined);
  if (slug && (await getReceiver(slug))) return { fieldErrors: { slug: 'This slug is taken.' }, values: raw, nonce };
  let id: string;
  try {
    const receiver = await createReceiver({ name, slug: slug || undefined, secret });
    id = receiver.id;
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.create', target: [id], result: 'ok', detail: { name, slug: receiver.slug, verifies: !!secret } });
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.create', result: auditResultOf(err), detail: { name } });
    const error = actionErrorInfo(err);
    return { error, fieldErrors: Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message])), values: raw, nonce };
  }
  redirect(`/receivers/${id}`);
}

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
});

export async function updateReceiverAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const staff = await requireRole('operator');
  const raw = Object.fromEntries(['id', 'name', 'secret1', 'secret2', 'responseStatus', 'responseBody', 'responseDelayMs'].map((k) => [k, String(formData.get(k) ?? '')]));
  const confirmed = formData.get('confirmed') === 'secrets';
  const nonce = (prev.nonce ?? 0) + 1;
  const parsed = ZUpdate.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  const { id, name, secret1, secret2, responseStatus, responseBody, responseDelayMs } = parsed.data;
  let updated;
  try {
    const before = await getReceiver(id);
    if (!before) return { error: { message: 'This receiver no longer exists.' }, nonce };
    const held = (value: string, field: string) => (value ? resolveSecretStandIns([value], before.secrets, field)[0] : '');
    const secrets = [...new Set([held(secret1, 'secret1'), held(secret2, 'secret2')].filter(Boolean))];
    // A change of secrets that its webhooks do not sign with is said before it is saved.
    if (!confirmed && !sameSet(secrets, before.secrets)) {
      const mismatches = await secretWarnings(staff.environment, connectApi(staff.environment), { ...before, secrets });
      if (mismatches.length) return { confirm: mismatches.map((w) => w.message), values: raw, nonce };
    }
    updated = await updateReceiver(id, { name, secrets, responseStatus, responseBody, responseDelayMs });
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.update', target: [id], result: 'ok', detail: receiverChanges(before, { name, secrets, responseStatus, responseBody, responseDelayMs }) });
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.update', target: [id], result: auditResultOf(err) });
    const error = actionErrorInfo(err);
    const fieldErrors = Object.fromEntries((error.errors ?? []).map((e) => [e.path, e.message]));
    return Object.keys(fieldErrors).length ? { fieldErrors, values: raw, nonce } : { error, values: raw, nonce };
  }
  const warnings = await secretWarnings(staff.environment, connectApi(staff.environment), updated);
  revalidatePath(`/receivers/${id}`);
  return { ok: true, notice: `Saved. The receiver now answers ${responseStatus}${responseDelayMs ? ` after ${responseDelayMs} ms` : ''}.`, warnings: warnings.map((w) => w.message), nonce };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
