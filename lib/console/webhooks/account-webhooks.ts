import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { mapLimit } from '../map-limit';
import type { TEnvironmentName } from '../staff/session';
import { withPausedBy } from './paused-by';
import { toWebhookView, type TWebhookView } from './webhook-view';
import { listTrackedWebhooks } from './tracked-webhooks';

// Every webhook of the account, for views across webhooks: the service's list (EXT), else the
// webhooks this console tracks, each read (or, without Get webhook, as the console recorded it).

const MAX_PAGES = 10;

export async function accountWebhooks(envName: TEnvironmentName, api: ConnectApi): Promise<{ webhooks: TWebhookView[]; listed: boolean }> {
  try {
    const out: TWebhookView[] = [];
    let pageToken: string | undefined;
    for (let i = 0; i < MAX_PAGES; i++) {
      const page = await api.get('/v1/webhooks', { params: { query: { pageLimit: 100, pageToken } } });
      out.push(...page.results.map(toWebhookView));
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
    return { webhooks: await withPausedBy(out), listed: true };
  } catch (err) {
    if (!isUnsupported(err)) throw err;
  }
  const tracked = await listTrackedWebhooks(envName);
  const webhooks = await mapLimit(tracked, 6, async (t): Promise<TWebhookView> => {
    const w = await api.get('/v1/webhooks/{id}', { params: { path: { id: t.webhookId } } }).catch(() => null);
    if (w) return toWebhookView(w);
    return {
      id: t.webhookId,
      url: t.url,
      description: t.description,
      eventTypes: [],
      disabled: false,
      disabledReason: null,
      disabledAt: null,
      createdAt: t.createdAt.toISOString(),
    };
  });
  return { webhooks: await withPausedBy(webhooks), listed: false };
}
