import 'server-only';
import { describeForLog } from '@/lib/http/log-error';
import type { TReceiver } from '../receivers/types';
import { readSettled, type TStreamCursor, type TStreamReceipt } from './read-settled';
import { feedIsLive, onReceipts } from './receipt-feed';

// A receiver's receipts as Server-Sent Events (text/event-stream), what `npm run listen` follows:
//   event: ready    id: <the cursor>   data: {receiver, after}       once, first
//   event: receipt  id: <receipt id>   data: {id, method, path, query, headers, body (base64), …}
//   : heartbeat                                                      a comment after 15 s of quiet
//   event: error    data: {status, detail}                           then the stream ends (token revoked…)
// First the backlog after the cursor, in order, then each receipt as its commit is announced
// (receipt-feed.ts) — the table is read when woken, not polled (a notification lost while the LISTEN
// connection was down is covered by the wake-all that follows its reconnection; only while no LISTEN
// is in place does a heartbeat re-read). Pull-based: a slow reader holds
// the reads back instead of filling memory. Every heartbeat re-checks the caller (`stillAllowed`),
// and receipts go out only after a check in the last second, so a revoked token's stream ends at its
// next receipt or heartbeat, whichever comes first.

export const HEARTBEAT_MS = 15_000;
const PAGE = 50;
/** How soon a receipt held back behind a running transaction is looked at again. */
const HELD_RECHECK_MS = 200;
/** Receipts go out only if the caller was allowed this recently (a revoked token gets none after it). */
const RECHECK_BEFORE_SEND_MS = 1000;

const encoder = new TextEncoder();

export function receiptEvent(r: TStreamReceipt, receiverId: string) {
  return {
    id: r.id,
    receiverId,
    method: r.method,
    path: r.path,
    query: r.query,
    headers: r.headers,
    body: r.body ? r.body.toString('base64') : null,
    bodySize: r.bodySize,
    oversize: r.oversize,
    bodyGone: r.bodyGone !== null,
    /** Why the body is gone ('erased': a donor erasure; 'purged': retention) and when; null while it is kept. */
    bodyGoneReason: r.bodyGone?.reason ?? null,
    bodyGoneAt: r.bodyGone?.at.toISOString() ?? null,
    messageId: r.messageId,
    verdict: r.verdict,
    verdictReason: r.verdictReason,
    responseStatus: r.responseStatus,
    receivedAt: r.receivedAt.toISOString(),
  };
}

const frame = (event: string, id: string | null, data: unknown) => `${id === null ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export type TStreamOptions = {
  receiver: Pick<TReceiver, 'id' | 'slug' | 'name'>;
  cursor: TStreamCursor;
  /** The id the ready event names (the cursor's receipt, or the `after` asked for). */
  readyId: number;
  /** Null while the caller may still read; else the refusal that ends the stream. */
  stillAllowed: () => Promise<{ status: number; detail: string } | null>;
  heartbeatMs?: number;
};

export function receiptStream(o: TStreamOptions): ReadableStream<Uint8Array> {
  const heartbeatMs = o.heartbeatMs ?? HEARTBEAT_MS;
  let cursor = o.cursor;
  let woken = true; // read once at the start
  let wake: (() => void) | null = null;
  let closed = false;
  let lastWrite = Date.now();
  /** A visible receipt waits behind a running transaction: look again soon, woken or not. */
  let held = false;
  const unsubscribe = onReceipts(o.receiver.id, () => {
    woken = true;
    wake?.();
  });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
      if (woken || closed) done();
    });
  const end = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };
  let lastCheck = Date.now();
  /** Ends the stream with an error event when the caller may no longer read; whether it did. */
  const refuse = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<boolean> => {
    lastCheck = Date.now();
    const refused = await o.stillAllowed();
    if (!refused) return false;
    controller.enqueue(encoder.encode(frame('error', null, refused)));
    end();
    controller.close();
    return true;
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`retry: 1000\n${frame('ready', String(o.readyId), { receiver: o.receiver, after: String(o.readyId) })}`));
      },
      async pull(controller) {
        try {
          while (!closed) {
            if (woken) {
              woken = false;
              const page = await readSettled(o.receiver.id, cursor, PAGE);
              held = page.held;
              if (page.receipts.length) {
                if (Date.now() - lastCheck > RECHECK_BEFORE_SEND_MS && (await refuse(controller))) return;
                const last = page.receipts[page.receipts.length - 1];
                cursor = { tx: last.tx, id: last.id, minId: cursor.minId };
                if (page.receipts.length === PAGE || held) woken = true; // more to read, or to look at again soon
                controller.enqueue(encoder.encode(page.receipts.map((r) => frame('receipt', String(r.id), receiptEvent(r, o.receiver.id))).join('')));
                lastWrite = Date.now();
                return;
              }
            }
            const quietFor = Date.now() - lastWrite;
            if (quietFor >= heartbeatMs) {
              if (await refuse(controller)) return;
              if (!feedIsLive()) woken = true; // no LISTEN yet: read at each beat instead
              controller.enqueue(encoder.encode(': heartbeat\n\n'));
              lastWrite = Date.now();
              return;
            }
            await sleep(held ? Math.min(HELD_RECHECK_MS, heartbeatMs - quietFor) : heartbeatMs - quietFor);
            if (held) woken = true;
          }
        } catch (err) {
          console.error(`[listen] the stream of receiver ${o.receiver.id} ended: ${describeForLog(err)}`);
          end();
          controller.error(err);
        }
      },
      cancel() {
        end();
      },
    },
    { highWaterMark: 1 },
  );
}
