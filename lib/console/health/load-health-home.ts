import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { accountWebhooks } from '@/lib/console/account-webhooks';
import { mapLimit } from '@/lib/console/map-limit';
import type { TEnvironmentName } from '@/lib/console/session';
import { classifyHealth, compareHealth } from './classify-health';
import type { THealthHome, THealthRow, THealthWindow } from './health-types';

/**
 * Every webhook of the account (the service's list, else the tracked ones) with its stats over
 * `window` read from the API (a few at a time) and its health, troubled ones first.
 */
export async function loadHealthHome(envName: TEnvironmentName, api: ConnectApi, window: THealthWindow): Promise<THealthHome> {
  const { webhooks, listed } = await accountWebhooks(envName, api);
  let statsSupported = true;
  const rows = await mapLimit(webhooks, 6, async (webhook): Promise<THealthRow> => {
    try {
      const stats = await api.getWebhookStats(webhook.id, window);
      return { webhook, stats, error: null, health: classifyHealth(stats, webhook.disabled) };
    } catch (err) {
      if (isUnsupported(err)) statsSupported = false;
      const error = err instanceof Error ? err.message : 'the stats could not be read';
      return { webhook, stats: null, error, health: classifyHealth(null, webhook.disabled) };
    }
  });
  rows.sort((a, b) => compareHealth({ ...a, name: a.webhook.description || a.webhook.id }, { ...b, name: b.webhook.description || b.webhook.id }));
  return { window, rows, statsSupported, listed, fetchedAt: new Date().toISOString() };
}
