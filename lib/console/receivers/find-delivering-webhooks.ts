import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import type { TReceiver } from '@/lib/console/receivers';
import { consoleAddresses } from '@/lib/console/receivers/console-addresses';
import { receiverForUrl } from '@/lib/console/receivers/receiver-urls';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { listTrackedWebhooks } from '@/lib/console/webhooks/tracked-webhooks';
import { apiErrorInfo } from '@/lib/console/connect-api/load-or-error';
import type { TErrorInfo } from '@/lib/console/error-info';

// The webhooks of the current environment that deliver to a receiver: those this console tracks
// (created for it, or pointing at it) and, when the service lists webhooks (EXT), every one of the
// account whose URL reaches it — by any address this app answers on (receiver-urls.ts: its public
// URLs, loopback, CONSOLE_RECEIVER_HOSTS, hosts learned from verified arrivals), as the webhook's
// page decides it, not only the ingest URL the console hands out.

export type TDeliveringWebhook = {
  id: string;
  description: string;
  url: string;
  /** null: not known (the service lists no webhooks). */
  disabled: boolean | null;
  /** Created for this receiver, but the service says its URL now goes elsewhere. */
  movedAway: boolean;
};

const MAX_PAGES = 10;

async function listAllWebhooks(api: ConnectApi) {
  const out = [];
  let pageToken: string | undefined;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await api.get('/v1/webhooks', { params: { query: { pageLimit: 100, pageToken } } });
    out.push(...page.results);
    if (!page.nextPageToken) break;
    pageToken = page.nextPageToken;
  }
  return out;
}

export async function findDeliveringWebhooks(
  environment: TEnvironmentName,
  api: ConnectApi,
  receiver: TReceiver,
): Promise<{ webhooks: TDeliveringWebhook[]; listError: TErrorInfo | null }> {
  const addresses = await consoleAddresses();
  const reaches = (url: string) => receiverForUrl(url, [receiver], addresses) !== null;
  const [tracked, listed] = await Promise.all([
    listTrackedWebhooks(environment),
    listAllWebhooks(api).then(
      (webhooks) => ({ webhooks, error: null }),
      (err: unknown) => ({ webhooks: null, error: isUnsupported(err) ? null : apiErrorInfo(err) }),
    ),
  ]);
  const byId = new Map(listed.webhooks?.map((w) => [w.id, w]) ?? []);
  const found = new Map<string, TDeliveringWebhook>();
  for (const t of tracked) {
    if (t.receiverId !== receiver.id && !reaches(t.url)) continue;
    const live = byId.get(t.webhookId);
    found.set(t.webhookId, {
      id: t.webhookId,
      description: live?.description || t.description,
      url: live?.url ?? t.url,
      disabled: live?.disabled ?? null,
      movedAway: !!live && !reaches(live.url),
    });
  }
  for (const w of listed.webhooks ?? []) {
    if (found.has(w.id) || !reaches(w.url)) continue;
    found.set(w.id, { id: w.id, description: w.description, url: w.url, disabled: w.disabled, movedAway: false });
  }
  return { webhooks: [...found.values()], listError: listed.error };
}
