import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { processSingleton } from '@/lib/process-singleton';

// Heavy reports — the exports (a webhook's timeline, a case bundle, a receiver's HAR) and the daily
// reconciliation — each read a lot from the service and the store and may stream for minutes. At
// most REPORTS_PER_USER run at once per staff user in this process; one more is a 429 with
// Retry-After, and runs nothing. A report holds its slot until its body is written to the end,
// fails, or its client goes away mid-stream. The count is per process: each process guards its own
// event loop, memory and connections to the service, which is what the bound is for (behind a load
// balancer a user may run this many on each process).

export const REPORTS_PER_USER = 2;
export const REPORT_RETRY_AFTER_S = 10;

const running = processSingleton('report-slots', () => new Map<string, number>());

export const REPORTS_BUSY = `At most two reports at once per staff user (the exports and the reconciliation), and two of yours are running. Try again when one of them finishes.`;

/** One of the user's report slots, or the 429; the returned release gives it back (once, however often it is called). */
export function takeReportSlot(userId: string): () => void {
  const release = tryReportSlot(userId);
  if (!release) throw new ApiError('rate_limited', REPORTS_BUSY, { headers: { 'retry-after': String(REPORT_RETRY_AFTER_S) } });
  return release;
}

/** One of the user's report slots, or null when REPORTS_PER_USER of theirs are running (a page says REPORTS_BUSY). */
export function tryReportSlot(userId: string): (() => void) | null {
  const held = running.get(userId) ?? 0;
  if (held >= REPORTS_PER_USER) return null;
  running.set(userId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (running.get(userId) ?? 1) - 1;
    if (left > 0) running.set(userId, left);
    else running.delete(userId);
  };
}

/**
 * `res` with the slot released when its body has been read to the end (before the response ends,
 * so a client that starts the next report on seeing the end finds the slot free), when it fails,
 * or when the client goes away (the stream cancelled, or `signal` aborted). Pulled one chunk at a
 * time, so a slow reader still holds back the reading behind it.
 */
export function releaseWhenDone(res: Response, release: () => void, signal: AbortSignal): Response {
  if (!res.body) {
    release();
    return res;
  }
  signal.addEventListener('abort', release, { once: true });
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (!done) return controller.enqueue(value);
          release();
          controller.close();
        } catch (err) {
          release();
          controller.error(err);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
