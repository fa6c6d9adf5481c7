import { ApiError } from '@/lib/http/errors';

// What a stream request asks for: the cursor (`?after=<receipt id>`, else the Last-Event-ID header
// an EventSource sends when it reconnects, else none: from now), and an Accept that takes
// text/event-stream — asked without it (a browser tab, a JSON client) it answers 406 instead of
// holding the connection open.

export function streamAfter(search: URLSearchParams, lastEventId: string | null): number | null {
  const fromQuery = search.get('after');
  const raw = fromQuery ?? lastEventId;
  if (raw === null || (fromQuery === null && raw === '')) return null;
  const field = fromQuery !== null ? 'after' : 'Last-Event-ID';
  if (!/^(0|[1-9]\d{0,14})$/.test(raw))
    throw new ApiError('bad_request', `${field}: a receipt id (a whole number, 0 for the first receipt), not "${raw.slice(0, 40)}".`, {
      errors: [{ path: field, message: 'a receipt id' }],
    });
  return Number(raw);
}

export function assertAcceptsEventStream(accept: string | null): void {
  if (!/(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept ?? '')) {
    throw new ApiError('not_acceptable', 'Accept: this is a Server-Sent Events stream; send "Accept: text/event-stream" (npm run listen and EventSource do).');
  }
}
