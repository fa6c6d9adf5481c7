import 'server-only';
import { listenDb } from '@/lib/db/listen';
import { LISTENERS_CHECK_MS } from '@/lib/db/listeners';
import { describeForLog } from '@/lib/http/log-error';
import { processSingleton } from '@/lib/process-singleton';
import { RECEIPTS_CHANNEL } from './receipt-channel';

// The process's one LISTEN on the receipts channel, shared by every open receipt stream: a commit
// that stores receipts (lib/console/ingest/record-receipt.ts, in any process on PostgreSQL; the
// embedded store's own notifications on PGlite) wakes the streams of the receivers it names. A
// notification without a payload (the LISTEN connection was made again: one may have been missed)
// wakes them all. The LISTEN is in place only while streams are open (and IDLE_MS after the last
// closes): receipts are stored without a NOTIFY while nobody listens (lib/db/listeners.ts).

type TWake = () => void;
type TUnlisten = () => Promise<void>;
type TFeed = { byReceiver: Map<string, Set<TWake>>; listening?: Promise<TUnlisten | null>; live: boolean; idle?: NodeJS.Timeout };

/** How long the LISTEN stays after the last stream closed (a reconnecting `npm run listen` finds it in place). */
const IDLE_MS = 30_000;

const feed = processSingleton('receipt-feed', (): TFeed => ({ byReceiver: new Map(), live: false }));

function deliver(payload?: string): void {
  const ids = payload ? payload.split(',') : [...feed.byReceiver.keys()];
  for (const id of ids) for (const wake of feed.byReceiver.get(id) ?? []) wake();
}

function ensureListening(): void {
  clearTimeout(feed.idle);
  feed.listening ??= listenDb(RECEIPTS_CHANNEL, deliver).then(
    (unlisten) => {
      feed.live = true;
      // A stream that read before the LISTEN was in place may have missed a commit in between; and
      // another process may store receipts without a NOTIFY until it sees this LISTEN (within
      // LISTENERS_CHECK_MS): the streams read again once that has passed.
      deliver();
      setTimeout(deliver, LISTENERS_CHECK_MS + 1000).unref();
      return unlisten;
    },
    (err) => {
      // Until it is, streams re-read at each heartbeat; the next subscriber tries to listen again.
      console.error(`[listen] could not LISTEN on ${RECEIPTS_CHANNEL}: ${describeForLog(err)}`);
      feed.listening = undefined;
      return null;
    },
  );
}

/** Once no stream is left, the LISTEN goes after IDLE_MS (so commits stop notifying). */
function unlistenWhenIdle(): void {
  clearTimeout(feed.idle);
  feed.idle = setTimeout(() => {
    if (feed.byReceiver.size > 0 || !feed.listening) return;
    const listening = feed.listening;
    feed.listening = undefined;
    feed.live = false;
    void listening.then((unlisten) => unlisten?.()).catch(() => {});
  }, IDLE_MS);
  feed.idle.unref();
}

/** Calls `wake` after each commit that stores a receipt of `receiverId`; returns the unsubscribe. */
export function onReceipts(receiverId: string, wake: TWake): () => void {
  ensureListening();
  let set = feed.byReceiver.get(receiverId);
  if (!set) feed.byReceiver.set(receiverId, (set = new Set()));
  set.add(wake);
  return () => {
    set.delete(wake);
    if (set.size === 0 && feed.byReceiver.get(receiverId) === set) feed.byReceiver.delete(receiverId);
    if (feed.byReceiver.size === 0) unlistenWhenIdle();
  };
}

/** Whether commits are being announced (the LISTEN is in place); if not, a stream re-reads at each heartbeat. */
export function feedIsLive(): boolean {
  return feed.live;
}
