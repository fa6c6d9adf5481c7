import 'server-only';
import { ConnectApiError, isUnsupported, type ConnectApi, type TMessage, type TPage } from '@/lib/console/connect-api';
import type { TTroubledMessage } from '@/lib/console/connect-api/types';
import type { TEnvironmentName } from '../staff/session';
import { mapLimit } from '../map-limit';
import { countAnsweredWithBadSignature, countSuspiciousArrivals, troubledReceiptsPage, type TTroubledReceipt } from '../receivers/troubled-receipts';
import { receiversOfDelivery } from '../timeline/join-delivery';
import { isProblemNotPaused, pausedIds } from './paused-problems';
import { deliveryOf } from '../timeline/message-delivery';
import type { TTimelineWebhook } from '../timeline/timeline-types';
import { completeRows, type TProblemContext, type TProblemRow } from './problem-rows';
import { encodeCursor, SUSPICIOUS_KIND, SUSPICIOUS_LABEL, type TIndexCursor, type TProblemCount, type TProblemGroup, type TProblemItem } from './problem-types';

// The problems view by index, not by scan: three sources, each read from where the last page left
// it and merged newest first —
//   the service's failed and retrying (message, webhook) pairs (EXT GET /v1/webhooks/messages),
//   this console's receipts whose newest arrival failed the check or was answered with an error
//   (receivers/troubled-receipts.ts), for the messages the sender does not list as either (which of
//   a round's messages it lists: one call, EXT `message=`, not a read of each);
// with each webhook's counts exact up to COUNT_CAP (EXT GET /v1/webhooks/messages/counts and one
// capped count per receiver). A page costs a few calls per shown row, whatever the volume.

export const COUNT_CAP = 1000;
/** Rounds of reading when the rows a round read were not problems after all (a short page otherwise). */
const MAX_ROUNDS = 3;
/** Message ids a lookup of the sender's lists names at most (its limit: MAX_MESSAGE_FILTER). */
const LOOKUP_MAX = 100;

type TSenderState = 'failed' | 'retrying';
type TPosition = TIndexCursor['failed'];
type TCandidate = { t: string; m: string; w: string; source: TSenderState | 'receipts'; message?: TMessage; receipt?: TTroubledReceipt };

const FIRST: TIndexCursor = { k: 'index', failed: { skip: 0 }, retrying: { skip: 0 }, receipts: null };
const newer = (a: TCandidate, b: TCandidate) => b.t.localeCompare(a.t) || b.m.localeCompare(a.m) || b.w.localeCompare(a.w);
const isRetrying = (m: TMessage) => (m.status === 'pending' || m.status === 'sending') && m.attemptCount >= 2;

export async function indexProblems(
  envName: TEnvironmentName,
  api: ConnectApi,
  ctx: TProblemContext,
  { since, until, cursor, pageLimit }: { since: Date; until: Date; cursor?: TIndexCursor; pageLimit: number },
): Promise<{ groups: TProblemGroup[]; items: TProblemItem[]; nextPageToken: string | null }> {
  const webhooks = new Map(ctx.webhooks.map((w) => [w.id, w]));
  const paused = pausedIds(ctx.webhooks);
  const targets = new Map(ctx.webhooks.map((w) => [w.id, receiversOfDelivery([], w.url, ctx.receivers, ctx.addresses)]));
  const webhooksAt = new Map<string, TTimelineWebhook[]>();
  for (const w of ctx.webhooks) for (const r of targets.get(w.id)!) webhooksAt.set(r.id, [...(webhooksAt.get(r.id) ?? []), w]);
  const receiverIds = [...webhooksAt.keys()];
  const range = { after: since.toISOString(), before: until.toISOString() };

  const groupsRead = (async () => {
    const [service, receiverOnly, suspicious] = await Promise.all([
      api.get('/v1/webhooks/messages/counts', { params: { query: { ...range, cap: COUNT_CAP } } }),
      countAnsweredWithBadSignature(receiverIds, since, until, COUNT_CAP),
      countSuspiciousArrivals(receiverIds, since, until, COUNT_CAP),
    ]);
    return groupsOf(service.results, receiverOnly, suspicious);
  })();

  // Every (webhook, message) the sender listed as failed or retrying in this request's reads, shown
  // or not yet: a receipt of one of them is no row of its own (the sender's row stands for it, at its
  // own place), so its message is not fetched to learn what the list already said.
  const listedBySender = new Set<string>();

  // The service's list, from a position: its page, less what earlier pages showed.
  async function senderPage(state: TSenderState, pos: TPosition): Promise<{ rows: TTroubledMessage[]; next?: string }> {
    if (pos.done) return { rows: [] };
    const page: TPage<TTroubledMessage> = await api.get('/v1/webhooks/messages', {
      params: { query: { state, withContent: 'true', ...range, pageLimit: Math.min(100, pos.skip + pageLimit), pageToken: pos.tok } },
    });
    return { rows: page.results.slice(pos.skip), next: page.nextPageToken ?? undefined };
  }

  async function round(at: TIndexCursor, want: number) {
    const [failed, retrying, receipts] = await Promise.all([
      senderPage('failed', at.failed),
      senderPage('retrying', at.retrying),
      at.receipts === 'done' ? Promise.resolve([]) : troubledReceiptsPage(receiverIds, since, until, at.receipts, want + 1),
    ]);
    for (const m of [...failed.rows, ...retrying.rows]) listedBySender.add(`${m.webhookId}\n${m.id}`);
    const queues: Record<TCandidate['source'], TCandidate[]> = {
      failed: failed.rows.map((m) => ({ t: m.timestamp, m: m.id, w: m.webhookId, source: 'failed' as const, message: m })),
      retrying: retrying.rows.map((m) => ({ t: m.timestamp, m: m.id, w: m.webhookId, source: 'retrying' as const, message: m })),
      receipts: receipts.slice(0, want).flatMap((r) =>
        (webhooksAt.get(r.receiverId) ?? []).map((w) => ({
          t: r.receivedAt.toISOString(),
          m: r.messageId,
          w: w.id,
          source: 'receipts' as const,
          receipt: r,
        })),
      ),
    };
    const more = { failed: failed.next !== undefined, retrying: retrying.next !== undefined, receipts: receipts.length > want };
    const taken: TCandidate[] = [];
    const used = { failed: 0, retrying: 0, receipts: 0 };
    let lastReceipt: TTroubledReceipt | undefined;
    // Newest first across the three, until the page is full or a source has shown all it read
    // while it has more (its next rows could be newer than another source's).
    while (taken.length < want) {
      const heads = (['failed', 'retrying', 'receipts'] as const).filter((s) => used[s] < queues[s].length);
      if (!heads.length) break;
      const s = heads.reduce((a, b) => (newer(queues[a][used[a]], queues[b][used[b]]) <= 0 ? a : b));
      const c = queues[s][used[s]];
      if (s === 'receipts') {
        // A receipt's rows (one per webhook it feeds) are taken together.
        const id = c.receipt!.id;
        while (used.receipts < queues.receipts.length && queues.receipts[used.receipts].receipt!.id === id) taken.push(queues.receipts[used.receipts++]);
        lastReceipt = c.receipt;
      } else {
        taken.push(c);
        used[s]++;
      }
      if (used[s] === queues[s].length && more[s]) break;
    }
    const position = (s: TSenderState, pos: TPosition, next: string | undefined): TPosition => {
      if (pos.done) return pos;
      if (used[s] < queues[s].length) return { tok: pos.tok, skip: pos.skip + used[s] };
      return next ? { tok: next, skip: 0 } : { skip: 0, done: true };
    };
    const receiptsLeft = used.receipts < queues.receipts.length || more.receipts;
    const nextAt: TIndexCursor = {
      k: 'index',
      failed: position('failed', at.failed, failed.next),
      retrying: position('retrying', at.retrying, retrying.next),
      receipts:
        at.receipts === 'done'
          ? 'done'
          : !receiptsLeft
            ? 'done'
            : lastReceipt
              ? { t: lastReceipt.receivedAt.toISOString(), id: String(lastReceipt.id) }
              : at.receipts,
    };
    const done = !!nextAt.failed.done && !!nextAt.retrying.done && nextAt.receipts === 'done';
    return { taken, nextAt, done };
  }

  // The receipts' messages the reads have not placed yet: which of them the sender lists as failed
  // or retrying, two calls for all of them (EXT `message=`) rather than one per message. A service
  // without the filter answers its list or an error: only the pairs it lists count, the rest are
  // fetched one by one as before.
  const placeReceipts = async (taken: TCandidate[]) => {
    const ids = [...new Set(taken.filter((c) => c.source === 'receipts' && !listedBySender.has(`${c.w}\n${c.m}`)).map((c) => c.m))].slice(0, LOOKUP_MAX);
    if (!ids.length) return;
    await Promise.all(
      (['failed', 'retrying'] as const).map(async (state) => {
        const page = await api
          .get('/v1/webhooks/messages', { params: { query: { state, message: ids.join(','), withContent: 'false', pageLimit: 100 } } })
          .catch((err) => {
            if (isUnsupported(err) || (err instanceof ConnectApiError && err.status === 400)) return null;
            throw err;
          });
        for (const m of page?.results ?? []) listedBySender.add(`${m.webhookId}\n${m.id}`);
      }),
    );
  };
  const asRows = async (taken: TCandidate[]): Promise<TProblemRow[]> => {
    await placeReceipts(taken);
    const rows = await mapLimit(taken, 6, async (c): Promise<TProblemRow | null> => {
      const webhook = webhooks.get(c.w);
      if (!webhook) return null;
      let message = c.message;
      if (!message) {
        if (listedBySender.has(`${c.w}\n${c.m}`)) return null;
        message = await api
          .get('/v1/webhooks/{id}/messages/{messageId}', { params: { path: { id: c.w, messageId: c.m } } })
          .catch((err) => (err instanceof ConnectApiError && err.status === 404 ? undefined : Promise.reject(err)));
        // Not sent to this webhook, or listed by the sender as failed or retrying: that row stands for it.
        if (!message || message.status === 'failed' || isRetrying(message)) return null;
      }
      return { webhook, message, delivery: await deliveryOf(envName, api, c.w, message) };
    });
    return rows.filter((r): r is TProblemRow => r !== null);
  };

  let at = cursor ?? FIRST;
  let done = false;
  const items: TProblemItem[] = [];
  for (let i = 0; i < MAX_ROUNDS && !done && items.length < pageLimit; i++) {
    const r = await round(at, pageLimit - items.length);
    items.push(...(await completeRows(api, ctx, await asRows(r.taken))).filter(isProblemNotPaused(paused)));
    at = r.nextAt;
    done = r.done;
  }
  return { groups: await groupsRead, items, nextPageToken: done ? null : encodeCursor(at) };

  type TCounts = Map<string, { count: number; capped: boolean }>;
  function groupsOf(
    service: { webhookId: string; failed: { count: number; capped: boolean }; retrying: { count: number; capped: boolean } }[],
    receiverOnly: TCounts,
    suspiciousAt: TCounts,
  ): TProblemGroup[] {
    const bySender = new Map(service.map((s) => [s.webhookId, s]));
    const groups: TProblemGroup[] = [];
    for (const webhook of ctx.webhooks) {
      const s = bySender.get(webhook.id);
      const at = targets.get(webhook.id)!;
      const receiver = at.map((r) => receiverOnly.get(r.id)).filter((c) => c !== undefined);
      const suspicious = at.map((r) => suspiciousAt.get(r.id)).filter((c) => c !== undefined);
      const counts: TProblemCount[] = [
        { key: 'failed', label: 'failed (no further attempts)', count: s?.failed.count ?? 0, capped: s?.failed.capped ?? false },
        // A paused webhook's retries wait for its resume: not sent yet, not a problem (paused-problems.ts).
        {
          key: 'retrying',
          label: 'retrying after two or more attempts',
          count: paused.has(webhook.id) ? 0 : (s?.retrying.count ?? 0),
          capped: s?.retrying.capped ?? false,
        },
        {
          key: 'received-bad-signature',
          label: 'delivered, but the signature did not verify here',
          count: receiver.reduce((n, c) => n + c.count, 0),
          capped: receiver.some((c) => c.capped),
        },
        { key: SUSPICIOUS_KIND, label: SUSPICIOUS_LABEL, count: suspicious.reduce((n, c) => n + c.count, 0), capped: suspicious.some((c) => c.capped) },
      ].filter((c) => c.count > 0);
      const total = counts.reduce((n, c) => n + c.count, 0);
      if (!total) continue;
      const r = at[0];
      groups.push({ webhook, receiver: r ? { id: r.id, name: r.name, slug: r.slug } : null, counts, total, truncated: counts.some((c) => c.capped) });
    }
    return groups;
  }
}
