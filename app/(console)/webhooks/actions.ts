'use server';

import { randomBytes } from 'node:crypto';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { createReceiver, getReceiver, ingestUrl, updateReceiver } from '@/lib/console/receivers';
import { trackWebhook } from '@/lib/console/tracked-webhooks';
import { EVENT_TYPES, ID_PREFIX } from '@/lib/constants';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo, asConnectApiError, isUnsupportedError } from '@/app/(console)/_lib/errors';
import { fieldErrorsOf, type TFormState } from '@/app/(console)/_lib/errors';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';

const newSecret = () => `${ID_PREFIX.webhookSecret}${randomBytes(32).toString('base64')}`;

const ZCreateWebhook = z
  .object({
    destination: z.enum(['new-receiver', 'receiver', 'url']),
    receiverName: z.string().trim().max(100, { message: 'At most 100 characters.' }).default(''),
    receiverId: z.string().trim().default(''),
    url: z.string().trim().default(''),
    eventTypes: z.array(z.enum(EVENT_TYPES, { message: 'Unknown event type.' })).min(1, { message: 'Pick at least one event type.' }),
    description: z.string().trim().max(1000, { message: 'At most 1000 characters.' }).default(''),
    disabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.destination === 'url') {
      const ok = z.url({ protocol: /^https?$/ }).max(2048).safeParse(v.url).success;
      if (!ok) ctx.addIssue({ code: 'custom', path: ['url'], message: 'An absolute http(s) URL of at most 2048 characters.' });
    }
    if (v.destination === 'receiver' && !v.receiverId) ctx.addIssue({ code: 'custom', path: ['receiverId'], message: 'Pick a receiver.' });
  });

/** Creates a subscription; by default pointing at a new receiver of this console that shares its signing secret. */
export async function createWebhookAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const { staff, api } = await staffApi('operator');
  const raw = {
    destination: String(formData.get('destination') ?? 'new-receiver'),
    receiverName: String(formData.get('receiverName') ?? ''),
    receiverId: String(formData.get('receiverId') ?? ''),
    url: String(formData.get('url') ?? ''),
    eventTypes: formData.getAll('eventTypes').map(String),
    description: String(formData.get('description') ?? ''),
    disabled: formData.get('disabled') === 'on',
  };
  const nonce = (prev.nonce ?? 0) + 1;
  const parsed = ZCreateWebhook.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  const input = parsed.data;

  let webhookId: string;
  let receiverId: string | null = null;
  let url = input.url;
  try {
    let secret: string | undefined;
    if (input.destination === 'new-receiver') {
      secret = newSecret();
      const receiver = await createReceiver({ name: input.receiverName || input.description.slice(0, 100) || `Receiver ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`, secret });
      receiverId = receiver.id;
      url = ingestUrl(receiver.slug);
    } else if (input.destination === 'receiver') {
      const receiver = await getReceiver(input.receiverId);
      if (!receiver) return { fieldErrors: { receiverId: 'No such receiver.' }, values: raw, nonce };
      receiverId = receiver.id;
      url = ingestUrl(receiver.slug);
      secret = receiver.secrets[0];
      if (!secret) {
        secret = newSecret();
        await updateReceiver(receiver.id, { secrets: [secret] });
      }
    }
    const body = { url, eventTypes: input.eventTypes, description: input.description, disabled: input.disabled };
    let webhook;
    try {
      webhook = await api.createWebhook({ ...body, secret });
    } catch (err) {
      // `secret` is an extension: a service that rejects it gets the plain request, and we ask for its secret below.
      const apiErr = asConnectApiError(err);
      const aboutSecret = apiErr?.status === 400 && apiErr.problem?.errors?.some((e) => e.path.startsWith('secret'));
      if (!secret || !aboutSecret) throw err;
      webhook = await api.createWebhook(body);
    }
    webhookId = webhook.id;
    if (receiverId && secret) {
      // The service may have ignored our secret: the receiver must verify with the one it signs with.
      const actual = await api.getWebhookSecret(webhookId).catch((err) => {
        if (isUnsupportedError(err)) return null;
        throw err;
      });
      if (actual && actual.key !== secret) await updateReceiver(receiverId, { secrets: [actual.key] });
    }
    await trackWebhook({ environment: staff.environment, webhookId, receiverId, url, description: input.description });
    await recordAudit(await getDb(), {
      actor: staff,
      action: 'webhook.create',
      target: [webhookId, receiverId ?? ''],
      result: 'ok',
      detail: { url, eventTypes: input.eventTypes.join(','), disabled: input.disabled, newReceiver: input.destination === 'new-receiver' },
    });
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.create', target: receiverId ? [receiverId] : [], result: auditResultOf(err), detail: { destination: input.destination } });
    const error = actionErrorInfo(err);
    const fieldErrors = Object.fromEntries((error.errors ?? []).filter((e) => ['url', 'eventTypes', 'description'].includes(e.path.split('.')[0])).map((e) => [e.path.split('.')[0], e.message]));
    return { error, fieldErrors, values: raw, nonce };
  }
  redirect(`/webhooks/${encodeURIComponent(webhookId)}`);
}

const ZTrack = z.object({ webhookId: z.string().trim().regex(/^[A-Za-z0-9_-]{3,200}$/, { message: 'A webhook id, e.g. ep_2abc…' }) });

/** Tracks an existing webhook of this account by id (verified by listing its messages, which every service supports). */
export async function trackWebhookAction(prev: TFormState, formData: FormData): Promise<TFormState> {
  const { staff, api } = await staffApi('operator');
  const raw = { webhookId: String(formData.get('webhookId') ?? '') };
  const nonce = (prev.nonce ?? 0) + 1;
  const parsed = ZTrack.safeParse(raw);
  if (!parsed.success) return { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce };
  const { webhookId } = parsed.data;
  try {
    await api.listMessages(webhookId, { pageLimit: 1 });
    const webhook = await api.getWebhook(webhookId).catch(() => null);
    await trackWebhook({ environment: staff.environment, webhookId, url: webhook?.url, description: webhook?.description });
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.track', target: [webhookId], result: 'ok' });
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'webhook.track', target: [webhookId], result: auditResultOf(err) });
    const error = actionErrorInfo(err);
    if (error.status === 404) return { fieldErrors: { webhookId: `The ${staff.environment} API has no webhook ${webhookId} for this account.` }, values: raw, nonce };
    return { error, values: raw, nonce };
  }
  redirect(`/webhooks/${encodeURIComponent(webhookId)}`);
}

/** One-click tracking from the service's list. */
export async function trackListedWebhookAction(formData: FormData): Promise<void> {
  const { staff, api } = await staffApi('operator');
  const parsed = ZTrack.safeParse({ webhookId: formData.get('webhookId') });
  if (!parsed.success) return;
  const webhook = await api.getWebhook(parsed.data.webhookId).catch(() => null);
  await trackWebhook({ environment: staff.environment, webhookId: parsed.data.webhookId, url: webhook?.url, description: webhook?.description });
  await recordAudit(await getDb(), { actor: staff, action: 'webhook.track', target: [parsed.data.webhookId], result: 'ok' });
  redirect(`/webhooks/${encodeURIComponent(parsed.data.webhookId)}`);
}
