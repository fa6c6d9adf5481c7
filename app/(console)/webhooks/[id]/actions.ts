'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { staffAction } from '@/lib/console/staff/staff-action';

// A webhook's own actions (operators): a test event, disable/enable, a message re-sent; each audited.

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
    const message = await api.sendTestEvent(webhookId, eventType || undefined);
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
    await api.updateWebhook(webhookId, { disabled });
    revalidatePath(`/webhooks/${webhookId}`);
    return { notice: disabled ? 'Webhook disabled.' : 'Webhook enabled.' };
  },
);

export const resendMessageAction = staffAction(
  { role: 'operator', input: z.tuple([ZWebhookId, ZMessageId]), audit: { action: 'message.resend', target: ([webhookId, messageId]) => [webhookId, messageId] } },
  async ({ api, input: [webhookId, messageId], audit }): Promise<{ data: { attemptId: string }; notice: string }> => {
    const attempt = await api.resendMessage(webhookId, messageId);
    audit({ target: [webhookId, messageId, attempt.id], detail: { attemptStatus: attempt.status } });
    return { data: { attemptId: attempt.id }, notice: 'Resent.' };
  },
);
