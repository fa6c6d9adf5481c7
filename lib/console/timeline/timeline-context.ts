import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { listReceivers, type TReceiver } from '../receivers';
import { consoleAddresses } from '../receivers/console-addresses';
import type { TConsoleAddresses } from '../receivers/receiver-urls';
import { siblingWebhooks } from './sibling-webhooks';
import type { TEnvironmentName } from '../staff/session';
import type { TTimelineWebhook } from './timeline-types';
import { getTrackedWebhook } from '../webhooks/tracked-webhooks';
import { withPausedBy } from '../webhooks/paused-by';
import { toWebhookView } from '../webhooks/webhook-view';
import { webhookSettings } from '../webhooks/webhook-settings';

/** What a timeline joins every page against: the webhook's settings and URL, the receivers, this console's addresses, the sibling webhooks. */
export type TTimelineContext = {
  settings: TTimelineWebhook | null;
  webhookUrl: string;
  receivers: TReceiver[];
  addresses: TConsoleAddresses;
  siblings: TTimelineWebhook[];
};

/** `newest`: the sibling webhooks are read after this moment (see siblingWebhooks); an export passes its start. */
export async function readTimelineContext(envName: TEnvironmentName, api: ConnectApi, webhookId: string, newest?: string): Promise<TTimelineContext> {
  const [webhook, tracked, receivers, addresses, siblings] = await Promise.all([
    webhookSettings(api, webhookId).catch(() => null),
    getTrackedWebhook(envName, webhookId),
    listReceivers(),
    consoleAddresses(),
    siblingWebhooks(envName, api, webhookId, newest),
  ]);
  const settings = webhook ? (await withPausedBy([toWebhookView(webhook)]))[0] : null;
  return { settings, webhookUrl: webhook?.url ?? tracked?.url ?? '', receivers, addresses, siblings };
}
