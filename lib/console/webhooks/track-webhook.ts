import 'server-only';
import { audited } from '../audit/audited';
import type { ConnectApi } from '../connect-api';
import type { TStaff } from '../staff/session';
import { trackWebhook } from './tracked-webhooks';

/**
 * Tracks an existing webhook of this account by id, audited. `verify` first lists one of its
 * messages (every service supports that), so an id the API does not know is its 404; without it
 * (a webhook picked from the service's own list) it is taken as it is.
 */
export function trackWebhookById(staff: TStaff, api: ConnectApi, webhookId: string, { verify }: { verify: boolean }): Promise<void> {
  return audited(staff, 'webhook.track', { target: [webhookId] }, async () => {
    if (verify) await api.get('/v1/webhooks/{id}/messages', { params: { path: { id: webhookId }, query: { pageLimit: 1 } } });
    const webhook = await api.get('/v1/webhooks/{id}', { params: { path: { id: webhookId } } }).catch(() => null);
    await trackWebhook({ environment: staff.environment, webhookId, url: webhook?.url, description: webhook?.description });
  });
}
