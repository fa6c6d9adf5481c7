import 'server-only';
import type { ConnectApi, TWebhook } from '@/lib/console/connect-api';
import { loadOrError } from '../connect-api/load-or-error';
import type { TEnvironmentName } from '../connect-api/environments';
import { mapLimit } from '../map-limit';
import { listReceivers } from '../receivers/manage-receivers';
import { listTrackedWebhooks } from './tracked-webhooks';

// The webhooks page's data: the webhooks this console tracks (each with its service record and
// receiver) and one page of the service's list (EXT) without the tracked ones.

const LIST_PAGE_SIZE = 50;

export async function loadWebhookList(environment: TEnvironmentName, api: ConnectApi, pageToken: string | undefined) {
  const [tracked, receivers, listed] = await Promise.all([
    listTrackedWebhooks(environment),
    listReceivers(),
    loadOrError(() => api.listWebhooks({ pageLimit: LIST_PAGE_SIZE, pageToken })),
  ]);
  const listSupported = !listed.unsupported;
  const webhooks = new Map<string, TWebhook | null>((listed.data?.results ?? []).map((w) => [w.id, w]));
  // Tracked webhooks not on this page of the service's list: ask for each (EXT; skipped when unsupported).
  if (listSupported) {
    const missing = tracked.filter((t) => !webhooks.has(t.webhookId));
    const got = await mapLimit(missing, 6, async (t) => (await loadOrError(() => api.getWebhook(t.webhookId))).data ?? null);
    missing.forEach((t, i) => webhooks.set(t.webhookId, got[i]));
  }
  const trackedIds = new Set(tracked.map((t) => t.webhookId));
  return {
    tracked,
    /** The service's record of each webhook read (null: it could not be read). */
    webhooks,
    receiverById: new Map(receivers.map((r) => [r.id, r])),
    listed,
    listSupported,
    untracked: (listed.data?.results ?? []).filter((w) => !trackedIds.has(w.id)),
  };
}
