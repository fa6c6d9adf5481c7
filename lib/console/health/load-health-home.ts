import 'server-only';
import { isUnsupported, type ConnectApi } from '@/lib/console/connect-api';
import { accountWebhooks } from '@/lib/console/webhooks/account-webhooks';
import { mapLimit } from '@/lib/console/map-limit';
import type { TWebhookStats } from '@/lib/console/connect-api';
import { processSingleton } from '@/lib/process-singleton';
import { listReceivers } from '@/lib/console/receivers';
import type { TEnvironmentName } from '@/lib/console/staff/session';
import { classifyHealth, compareHealth } from './classify-health';
import { HEALTH_WINDOW_SECONDS, type THealthHome, type THealthRow, type THealthWindow } from './health-types';
import { receiverSides } from './receiver-failures';
import { disableWarning } from './disable-warning';
import { pausedSince } from '@/lib/console/webhooks/paused-words';
import { cappedWords } from '@/lib/console/webhooks/capped-words';
import { plural } from '@/lib/console/format';
import { recentGaps } from '@/lib/console/recover/recent-gaps';

const MAX_STATS_PAGES = 10;

/** Every webhook's stats in one call a page (EXT GET /v1/webhooks/stats); null when the service lacks it. */
async function allWebhookStats(api: ConnectApi, window: THealthWindow): Promise<Map<string, TWebhookStats> | null> {
  const out = new Map<string, TWebhookStats>();
  let pageToken: string | undefined;
  try {
    for (let i = 0; i < MAX_STATS_PAGES; i++) {
      const page = await api.get('/v1/webhooks/stats', { params: { query: { window, pageLimit: 100, pageToken } } });
      for (const s of page.results) out.set(s.webhookId, s);
      if (!page.nextPageToken) return out;
      pageToken = page.nextPageToken;
    }
    return out;
  } catch (err) {
    if (isUnsupported(err)) return null;
    throw err;
  }
}

/** One read per environment and window at a time in this process: two tabs polling share it. */
const inFlight = processSingleton('health-home-reads', () => new Map<string, Promise<THealthHome>>());

/**
 * Every webhook of the account (the service's list, else the tracked ones) with its stats over
 * `window` (all of them in one call where the service offers it, else a few at a time), what this
 * console's receivers saw of it over the same span (one query for all of them), and its health,
 * troubled ones first.
 */
export function loadHealthHome(envName: TEnvironmentName, api: ConnectApi, window: THealthWindow): Promise<THealthHome> {
  const key = `${envName}\n${window}`;
  const running = inFlight.get(key);
  if (running) return running;
  const read = readHealthHome(envName, api, window).finally(() => inFlight.delete(key));
  inFlight.set(key, read);
  return read;
}

async function readHealthHome(envName: TEnvironmentName, api: ConnectApi, window: THealthWindow): Promise<THealthHome> {
  const started = Date.now();
  const since = new Date(started - HEALTH_WINDOW_SECONDS[window] * 1000);
  const [{ webhooks, listed }, receivers, all] = await Promise.all([accountWebhooks(envName, api), listReceivers(), allWebhookStats(api, window)]);
  let statsSupported = true;
  const [sides, rows] = await Promise.all([
    receiverSides(webhooks, receivers, since),
    mapLimit(webhooks, 6, async (webhook): Promise<Omit<THealthRow, 'receiver' | 'health'>> => {
      const listedStats = all?.get(webhook.id);
      if (listedStats) return { webhook, stats: listedStats, error: null };
      try {
        return { webhook, stats: await api.get('/v1/webhooks/{id}/stats', { params: { path: { id: webhook.id }, query: { window } } }), error: null };
      } catch (err) {
        if (isUnsupported(err)) statsSupported = false;
        return { webhook, stats: null, error: err instanceof Error ? err.message : 'the stats could not be read' };
      }
    }),
  ]);
  const out = rows.map((row): THealthRow => {
    const receiver = sides.get(row.webhook.id) ?? null;
    const b = row.stats?.backlog;
    const w = row.webhook;
    // Paused is not disabled: its own level, with who paused it and what waits.
    const health =
      w.paused && w.pausedAt && !w.disabled
        ? {
            level: 'paused' as const,
            reasons: [`${pausedSince(w.pausedAt, w.pausedBy, new Date(started))}${b ? `: ${plural(b.pending + b.sending, 'message')} waiting` : ''}`],
          }
        : classifyHealth(row.stats, row.webhook.disabled, receiver);
    const warning = disableWarning(
      { disabled: w.disabled, failingSince: w.failingSince ?? null, disablesAt: w.disablesAt ?? null, eventTypes: w.eventTypes },
      b ? b.pending + b.sending : null,
    );
    const capped = w.rateLimit ? cappedWords(w.rateLimit, b ? b.pending + b.sending : null) : null;
    return {
      ...row,
      receiver,
      warning,
      capped,
      health: { ...health, reasons: [...(warning ? [warning.sentence] : []), ...(capped ? [capped] : []), ...health.reasons] },
    };
  });
  const gaps = await recentGaps(api, webhooks).catch(() => []);
  out.sort((a, b) => compareHealth({ ...a, name: a.webhook.description || a.webhook.id }, { ...b, name: b.webhook.description || b.webhook.id }));
  return { window, rows: out, gaps, statsSupported, listed, fetchedAt: new Date().toISOString(), readMs: Date.now() - started };
}
