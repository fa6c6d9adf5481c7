import type { TErrorInfo } from '@/lib/console/error-info';

// The browser side of the console's JSON routes: one call, one error shape. A failed answer
// becomes a FetchJsonError carrying the problem detail and the request id to quote (the API's
// when the route passed an upstream error on, else the console's own).

export class FetchJsonError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'FetchJsonError';
  }

  /** The plain shape ErrorCallout shows. */
  info(): TErrorInfo {
    return { message: this.message, status: this.status || undefined, requestId: this.requestId };
  }
}

export async function fetchJson<T>(url: string, init?: { signal?: AbortSignal }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store', headers: { accept: 'application/json' }, signal: init?.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new FetchJsonError('The console did not answer (offline or restarting).', 0, null);
  }
  if (res.ok) return (await res.json()) as T;
  let detail = `HTTP ${res.status}`;
  let requestId = res.headers.get('x-request-id');
  try {
    const body = (await res.json()) as { detail?: string; title?: string; upstreamRequestId?: string | null };
    detail = body.detail || body.title || detail;
    requestId = body.upstreamRequestId || requestId;
  } catch {
    // not JSON: keep the status line
  }
  throw new FetchJsonError(detail, res.status, requestId);
}
