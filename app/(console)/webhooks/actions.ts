'use server';

import { z } from 'zod';
import { staffFormAction, staffFormPost } from '@/lib/console/staff/staff-action';
import { createWebhookFor, ZCreateWebhook } from '@/lib/console/webhooks/create-webhook';
import { trackWebhookById } from '@/lib/console/webhooks/track-webhook';
import { listReceivers } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import { receiverForUrl } from '@/lib/console/receivers/receiver-urls';

// The webhooks pages' actions (operators): a subscription created, an existing one tracked by id or
// from the service's list. Each audited.

/** Creates a subscription; by default pointing at a new receiver of this console that shares its signing secret. */
export const createWebhookAction = staffFormAction(
  {
    role: 'operator',
    read: (form) => {
      // "Use that receiver (and its secret)", offered when "Another URL" is one of this console's receivers.
      const useReceiver = String(form.get('useReceiver') ?? '');
      return {
        destination: useReceiver ? 'receiver' : String(form.get('destination') ?? 'new-receiver'),
        receiverName: String(form.get('receiverName') ?? ''),
        receiverId: useReceiver || String(form.get('receiverId') ?? ''),
        url: String(form.get('url') ?? ''),
        eventTypes: form.getAll('eventTypes').map(String),
        description: String(form.get('description') ?? ''),
        disabled: form.get('disabled') === 'on',
        confirmed: form.get('confirmed') === 'url',
      };
    },
    input: ZCreateWebhook,
    onError: (error) => {
      const fields = ['url', 'eventTypes', 'description', 'receiverId'];
      return {
        error,
        fieldErrors: Object.fromEntries(
          (error.errors ?? []).filter((e) => fields.includes(e.path.split('.')[0])).map((e) => [e.path.split('.')[0], e.message]),
        ),
      };
    },
  },
  async ({ staff, api, input, raw }) => {
    if (input.destination === 'url' && raw.confirmed !== true) {
      // Another URL that is one of this console's receivers: a fresh secret would fail its signature check on every delivery.
      const receiver = receiverForUrl(input.url, await listReceivers(), await consoleAddresses());
      if (receiver) {
        const why = receiver.secrets.length
          ? 'A webhook made for “Another URL” signs with a fresh secret that receiver does not hold, so every delivery there would fail its signature check.'
          : 'That receiver holds no secret, so its deliveries would not be verified.';
        Object.assign(raw, { matchReceiverId: receiver.id }); // the form's "Use that receiver" button sends it back
        return { confirm: [`This URL is this console’s receiver “${receiver.name}” (/ingest/${receiver.slug}): deliveries there are stored here. ${why}`] };
      }
    }
    return `/webhooks/${encodeURIComponent(await createWebhookFor(staff, api, input))}`;
  },
);

const ZTrack = z.object({
  webhookId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{3,200}$/, { message: 'A webhook id, e.g. ep_2abc…' }),
});

/** Tracks an existing webhook of this account by id (verified by listing its messages, which every service supports). */
export const trackWebhookAction = staffFormAction(
  {
    role: 'operator',
    read: (form) => ({ webhookId: String(form.get('webhookId') ?? '') }),
    input: ZTrack,
    onError: (error, { staff, input: { webhookId } }) =>
      error.status === 404 ? { fieldErrors: { webhookId: `The ${staff.environment} API has no webhook ${webhookId} for this account.` } } : { error },
  },
  async ({ staff, api, input: { webhookId } }) => {
    await trackWebhookById(staff, api, webhookId, { verify: true });
    return `/webhooks/${encodeURIComponent(webhookId)}`;
  },
);

/** One-click tracking from the service's list (a plain form: no state to answer with). */
export const trackListedWebhookAction = staffFormPost(
  { role: 'operator', read: (form) => ({ webhookId: String(form.get('webhookId') ?? '') }), input: ZTrack },
  async ({ staff, api, input: { webhookId } }) => {
    await trackWebhookById(staff, api, webhookId, { verify: false });
    return `/webhooks/${encodeURIComponent(webhookId)}`;
  },
);
