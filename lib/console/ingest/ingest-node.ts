import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '@/lib/constants';
import { REQUEST_ID_HEADER, requestIdFrom } from '@/lib/http/request-id';
import { withSpan } from '@/lib/telemetry/spans';
import { ingest } from './ingest';

// The receiver's fast path: scripts/server.mjs hands /ingest/{slug} requests straight from node:http
// to `serveIngest`, ahead of Next's request pipeline (which would cost more than the receiver's
// whole job). The hook is registered at boot on globalThis, the one thing the plain-JS server and
// the compiled app share.

/** Same name as INGEST_HOOK in scripts/server.mjs. */
const INGEST_HOOK = '__gcIngestHook';

type THook = (req: IncomingMessage, res: ServerResponse, forwardedFor: string) => void;

function pairsOf(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
}

async function serveIngest(req: IncomingMessage, res: ServerResponse, forwardedFor: string): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const slug = decodeURIComponent(path.slice('/ingest/'.length).replace(/\/$/, ''));
  // A span for the receiver's work (lib/telemetry): stored or refused, and how it answered.
  const answer = await withSpan('console.ingest', { 'receiver.slug': slug }, async (span) => {
    const answered = await ingest(slug, {
      method: req.method ?? 'GET',
      path,
      query: q < 0 ? '' : url.slice(q + 1),
      headers: pairsOf(req.rawHeaders),
      forwardedFor,
      requestId: requestIdFrom(req.headers[REQUEST_ID_HEADER] as string | undefined),
      // Read by its events; left paused, not destroyed, when reading stops early: the sender still gets its answer.
      body: hasBody ? req : null,
    });
    span.setAttribute('http.response.status_code', answered.status);
    return answered;
  });
  const body = answer.body === null || req.method === 'HEAD' ? '' : answer.body;
  const headers: Record<string, string> = { ...answer.headers };
  if (answer.body !== null) headers['content-length'] = String(Buffer.byteLength(answer.body));
  if (!req.complete) {
    // The body was not read (no such receiver) or not to its end (far over the limit): a small
    // rest is read and dropped so the connection stays usable; a large or unsized one closes it.
    if (Number(req.headers['content-length'] ?? Infinity) <= MAX_BODY_BYTES) req.resume();
    else headers.connection = 'close';
  }
  res.writeHead(answer.status, headers);
  res.end(body);
  if (headers.connection === 'close') res.once('finish', () => req.destroy());
}

/** Lets scripts/server.mjs serve /ingest/{slug} without Next. */
export function registerIngestHook(): void {
  (globalThis as unknown as Record<string, THook>)[INGEST_HOOK] = (req, res, forwardedFor) => {
    serveIngest(req, res, forwardedFor).catch((err) => {
      // ingest() answers every outcome itself; this is only a broken socket.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/problem+json', connection: 'close' });
      res.end();
      req.destroy(err as Error);
    });
  };
}
