import 'server-only';
import { listenDb } from '@/lib/db/client';
import { describeForLog } from '@/lib/http/log-error';
import { processSingleton } from '@/lib/process-singleton';
import { RECEIPTS_CHANNEL } from './receipt-channel';

// The process's one LISTEN on the receipts channel, shared by every open receipt stream: a commit
// that stores receipts (lib/console/ingest/record-receipt.ts, in any process on PostgreSQL; the
// embedded store's own notifications on PGlite) wakes the streams of the receivers it names. A
// notification without a payload (the LISTEN connection was made again: one may have been missed)
// wakes them all.

type TWake = () => void;
type TFeed = { byReceiver: Map<string, Set<TWake>>; listening?: Promise<unknown>; live: boolean };

const feed = processSingleton('receipt-feed', (): TFeed => ({ byReceiver: new Map(), live: false }));

function deliver(payload?: string): void {
  const ids = payload ? payload.split(',') : [...feed.byReceiver.keys()];
  for (const id of ids) for (const wake of feed.byReceiver.get(id) ?? []) wake();
}

function ensureListening(): void {
  feed.listening ??= listenDb(RECEIPTS_CHANNEL, deliver).then(
    () => {
      feed.live = true;
      // A stream that read before the LISTEN was in place may have missed a commit in between.
      deliver();
    },
    (err) => {
      // Until it is, streams re-read at each heartbeat; the next subscriber tries to listen again.
      console.error(`[listen] could not LISTEN on ${RECEIPTS_CHANNEL}: ${describeForLog(err)}`);
      feed.listening = undefined;
    },
  );
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
  };
}

/** Whether commits are being announced (the LISTEN is in place); if not, a stream re-reads at each heartbeat. */
export function feedIsLive(): boolean {
  return feed.live;
}
