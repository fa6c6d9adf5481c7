import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { listReceivers } from '@/lib/console/receivers';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { webhookSettings } from '@/lib/console/webhooks/webhook-settings';
import { getTrackedWebhook } from '@/lib/console/webhooks/tracked-webhooks';
import { classifyHealth } from './classify-health';
import { HEALTH_WINDOW_SECONDS, type THealth, type THealthWindow, type TReceiverSide, type TWebhookStats } from './health-types';
import { receiverSides } from './receiver-failures';

export type TWebhookHealth = { stats: TWebhookStats; receiver: TReceiverSide | null; health: THealth };

/** One webhook's stats over `window` and what this console's receiver saw of it, classified as on the health home. */
export async function loadWebhookHealth(envName: TEnvironmentName, api: ConnectApi, webhookId: string, window: THealthWindow): Promise<TWebhookHealth> {
  const since = new Date(Date.now() - HEALTH_WINDOW_SECONDS[window] * 1000);
  const [stats, webhook, tracked, receivers] = await Promise.all([
    api.get('/v1/webhooks/{id}/stats', { params: { path: { id: webhookId }, query: { window } } }),
    webhookSettings(api, webhookId).catch(() => null),
    getTrackedWebhook(envName, webhookId),
    listReceivers(),
  ]);
  const url = webhook?.url ?? tracked?.url ?? '';
  const receiver = (await receiverSides([{ id: webhookId, url }], receivers, since)).get(webhookId) ?? null;
  return { stats, receiver, health: classifyHealth(stats, stats.disabled, receiver) };
}
