import 'server-only';
import type { ConnectApi } from '@/lib/console/connect-api';
import { processSingleton } from '@/lib/process-singleton';
import { accountWebhooks } from '../webhooks/account-webhooks';
import type { TEnvironmentName } from '../staff/session';
import type { TTimelineWebhook } from './timeline-types';

// The account's other webhooks, for a timeline that must know who else sends to its receiver
// (join-delivery.ts splits a shared receiver's arrivals by address). Read at most every few
// seconds per environment — the timeline polls, and webhooks change rarely — and again when the
// view holds a message newer than the read: a webhook made in between (through the API, by any
// client) may have got it, and its arrivals must not be taken for this webhook's.

const TTL_MS = 5000;
const cache = processSingleton('sibling-webhooks', () => new Map<TEnvironmentName, { at: number; webhooks: Promise<TTimelineWebhook[]> }>());

/** The account's webhooks other than `webhookId`, read after `newest` (a message timestamp) when given. */
export async function siblingWebhooks(envName: TEnvironmentName, api: ConnectApi, webhookId: string, newest?: string): Promise<TTimelineWebhook[]> {
  let hit = cache.get(envName);
  const newestAt = newest ? Date.parse(newest) : NaN;
  if (!hit || Date.now() - hit.at > TTL_MS || hit.at <= newestAt) {
    hit = { at: Date.now(), webhooks: accountWebhooks(envName, api).then((r) => r.webhooks) };
    cache.set(envName, hit);
    // A failed read is not kept: the next timeline asks again.
    hit.webhooks.catch(() => cache.delete(envName));
  }
  const webhooks = await hit.webhooks.catch((): TTimelineWebhook[] => []);
  return webhooks.filter((w) => w.id !== webhookId);
}
