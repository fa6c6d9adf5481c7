import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { accountWebhooks } from '@/lib/console/account-webhooks';
import { mapLimit } from '@/lib/console/map-limit';
import { listReceivers } from '@/lib/console/receivers';
import type { TEnvironmentName } from '@/lib/console/session';
import { classifyHealth, compareHealth } from './classify-health';
import { HEALTH_WINDOW_SECONDS, type THealthHome, type THealthRow, type THealthWindow } from './health-types';
import { receiverSides } from './receiver-failures';

/**
 * Every webhook of the account (the service's list, else the tracked ones) with its stats over
 * `window` read from the API (a few at a time), what this console's receivers saw of it over the
 * same span (one query for all of them), and its health, troubled ones first.
 */
export async function loadHealthHome(envName: TEnvironmentName, api: ConnectApi, window: THealthWindow): Promise<THealthHome> {
  const since = new Date(Date.now() - HEALTH_WINDOW_SECONDS[window] * 1000);
  const [{ webhooks, listed }, receivers] = await Promise.all([accountWebhooks(envName, api), listReceivers()]);
  let statsSupported = true;
  const [sides, rows] = await Promise.all([
    receiverSides(webhooks, receivers, since),
    mapLimit(webhooks, 6, async (webhook): Promise<Omit<THealthRow, 'receiver' | 'health'>> => {
      try {
        return { webhook, stats: await api.getWebhookStats(webhook.id, window), error: null };
      } catch (err) {
        if (isUnsupported(err)) statsSupported = false;
        return { webhook, stats: null, error: err instanceof Error ? err.message : 'the stats could not be read' };
      }
    }),
  ]);
  const out = rows.map((row): THealthRow => {
    const receiver = sides.get(row.webhook.id) ?? null;
    return { ...row, receiver, health: classifyHealth(row.stats, row.webhook.disabled, receiver) };
  });
  out.sort((a, b) => compareHealth({ ...a, name: a.webhook.description || a.webhook.id }, { ...b, name: b.webhook.description || b.webhook.id }));
  return { window, rows: out, statsSupported, listed, fetchedAt: new Date().toISOString() };
}
