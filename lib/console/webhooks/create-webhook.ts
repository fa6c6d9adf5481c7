import 'server-only';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { EVENT_TYPES, ID_PREFIX } from '@/lib/constants';
import { ApiError } from '@/lib/http/errors';
import { audited } from '../audit/audited';
import { isUnsupported, type ConnectApi } from '../connect-api';
import { asConnectApiError } from '../connect-api/load-or-error';
import { createReceiver, getReceiver, ingestUrl, updateReceiver } from '../receivers';
import type { TStaff } from '../staff/session';
import { trackWebhook } from './tracked-webhooks';
import { formatUtcMinute } from '@/lib/console/format';

// A subscription created from the console, by default pointing at a new receiver of this console
// that shares its signing secret (or at an existing receiver, or at any URL); tracked, and audited
// once its outcome is known. The caller has checked the session and the operator role.

const newSecret = () => `${ID_PREFIX.webhookSecret}${randomBytes(32).toString('base64')}`;

export const ZCreateWebhook = z
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
      const ok = z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .safeParse(v.url).success;
      if (!ok) ctx.addIssue({ code: 'custom', path: ['url'], message: 'An absolute http(s) URL of at most 2048 characters.' });
    }
    if (v.destination === 'receiver' && !v.receiverId) ctx.addIssue({ code: 'custom', path: ['receiverId'], message: 'Pick a receiver.' });
  });
export type TCreateWebhookInput = z.output<typeof ZCreateWebhook>;

/** The receiver the webhook delivers to and the secret they share, made or taken as `input` asks. */
async function destinationOf(input: TCreateWebhookInput): Promise<{ receiverId: string | null; url: string; secret?: string }> {
  if (input.destination === 'url') return { receiverId: null, url: input.url };
  if (input.destination === 'new-receiver') {
    const secret = newSecret();
    const name = input.receiverName || input.description.slice(0, 100) || `Receiver ${formatUtcMinute(new Date())}`;
    const receiver = await createReceiver({ name, secret });
    return { receiverId: receiver.id, url: ingestUrl(receiver.slug), secret };
  }
  const receiver = await getReceiver(input.receiverId);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.', { errors: [{ path: 'receiverId', message: 'No such receiver.' }] });
  let secret = receiver.secrets[0];
  if (!secret) {
    secret = newSecret();
    await updateReceiver(receiver.id, { secrets: [secret] });
  }
  return { receiverId: receiver.id, url: ingestUrl(receiver.slug), secret };
}

/** Creates the webhook (and its receiver), tracks it, and returns its id. */
export function createWebhookFor(staff: TStaff, api: ConnectApi, input: TCreateWebhookInput): Promise<string> {
  return audited(staff, 'webhook.create', { detail: { destination: input.destination } }, async (note) => {
    const { receiverId, url, secret } = await destinationOf(input);
    if (receiverId) note({ target: [receiverId] });
    const body = { url, eventTypes: input.eventTypes, description: input.description, disabled: input.disabled };
    let webhook;
    try {
      webhook = await api.post('/v1/webhooks', { body: { ...body, secret } });
    } catch (err) {
      // `secret` is an extension: a service that rejects it gets the plain request, and we ask for its secret below.
      const apiErr = asConnectApiError(err);
      const aboutSecret = apiErr?.status === 400 && apiErr.problem?.errors?.some((e) => e.path.startsWith('secret'));
      if (!secret || !aboutSecret) throw err;
      webhook = await api.post('/v1/webhooks', { body: body });
    }
    if (receiverId && secret) {
      // The service may have ignored our secret: the receiver must verify with the one it signs with.
      const actual = await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } }).catch((err) => {
        if (isUnsupported(err)) return null;
        throw err;
      });
      if (actual && actual.key !== secret) await updateReceiver(receiverId, { secrets: [actual.key] });
    }
    await trackWebhook({ environment: staff.environment, webhookId: webhook.id, receiverId, url, description: input.description });
    note({
      target: [webhook.id, receiverId ?? ''],
      detail: { url, eventTypes: input.eventTypes.join(','), disabled: input.disabled, newReceiver: input.destination === 'new-receiver' },
    });
    return webhook.id;
  });
}
