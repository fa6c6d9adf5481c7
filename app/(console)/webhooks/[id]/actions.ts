'use server';

import { z } from 'zod';
import type { TWebhook } from '@/lib/console/connect-api/types';
import { staffAction } from '@/lib/console/staff/staff-action';

// A webhook's own actions (operators): a test event, disable/enable, pause/resume, its rate cap, a message re-sent; each audited.
// None re-renders the page in its answer (revalidatePath would hold the button's "Saving…" for a whole
// server render of the timeline): the caller refetches the webhook's queries, then refreshes the page's
// server-rendered parts (the outage card) without waiting on them.

const ZWebhookId = z.string().min(1).max(200);
const ZMessageId = z.string().min(1).max(200);

export const sendTestEventAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZWebhookId, z.string().min(1).max(100).optional()]),
    invalid: (e) => (e.issues[0]?.path[0] === 1 ? 'Invalid event type.' : 'Invalid webhook id.'),
    audit: { action: 'webhook.test', target: ([webhookId]) => [webhookId] },
  },
  async ({ api, input: [webhookId, eventType], audit }): Promise<{ data: { messageId: string }; notice: string }> => {
    const message = await api.post('/v1/webhooks/{id}/test', {
      params: { path: { id: webhookId } },
      body: eventType ? { eventType: eventType as TWebhook['eventTypes'][number] } : {},
    });
    audit({ target: [webhookId, message.id], detail: { eventType: message.eventType } });
    return { data: { messageId: message.id }, notice: `Test event ${message.id} queued.` };
  },
);

export const setWebhookDisabledAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZWebhookId, z.boolean()]),
    audit: { action: ([, disabled]) => (disabled ? 'webhook.disable' : 'webhook.enable'), target: ([webhookId]) => [webhookId] },
  },
  async ({ api, input: [webhookId, disabled] }) => {
    await api.patch('/v1/webhooks/{id}', { params: { path: { id: webhookId } }, body: { disabled } });
    return { notice: disabled ? 'Webhook disabled.' : 'Webhook enabled.' };
  },
);

export const setWebhookPausedAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZWebhookId, z.boolean()]),
    audit: { action: ([, paused]) => (paused ? 'webhook.pause' : 'webhook.resume'), target: ([webhookId]) => [webhookId] },
  },
  async ({ api, input: [webhookId, paused] }) => {
    await api.patch('/v1/webhooks/{id}', { params: { path: { id: webhookId } }, body: { paused } });
    return { notice: paused ? 'Webhook paused: its messages queue until you resume it.' : 'Webhook resumed: its queued messages are going out.' };
  },
);

/** EXT `rateLimit`: deliveries per second, 1–1000 (the service's bounds), or null for no cap. */
export const setWebhookRateLimitAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZWebhookId, z.int().min(1).max(1000).nullable()]),
    invalid: (e) => (e.issues[0]?.path[0] === 1 ? 'The rate cap must be a whole number of deliveries per second, from 1 to 1000.' : 'Invalid webhook id.'),
    audit: { action: 'webhook.rate-limit', target: ([webhookId]) => [webhookId], detail: ([, rateLimit]) => ({ rateLimit }) },
  },
  async ({ api, input: [webhookId, rateLimit] }) => {
    await api.patch('/v1/webhooks/{id}', { params: { path: { id: webhookId } }, body: { rateLimit } });
    return { notice: rateLimit === null ? 'Rate cap removed: deliveries go out as fast as the worker sends them.' : `Capped at ${rateLimit}/s.` };
  },
);

export const resendMessageAction = staffAction(
  {
    role: 'operator',
    input: z.tuple([ZWebhookId, ZMessageId]),
    audit: { action: 'message.resend', target: ([webhookId, messageId]) => [webhookId, messageId] },
  },
  async ({ api, input: [webhookId, messageId], audit }): Promise<{ data: { attemptId: string }; notice: string }> => {
    const attempt = await api.post('/v1/webhooks/{id}/messages/{messageId}/resend', { params: { path: { id: webhookId, messageId } } });
    audit({ target: [webhookId, messageId, attempt.id], detail: { attemptStatus: attempt.status } });
    return { data: { attemptId: attempt.id }, notice: 'Resent.' };
  },
);
