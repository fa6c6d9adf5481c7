import type { IncomingMessage, ServerResponse } from 'node:http';
import { NextRequest } from 'next/server';
import { MAX_BODY_BYTES } from '@/lib/constants';
import { REQUEST_ID_HEADER, requestIdFrom } from '@/lib/http/request-id';
import { safetyHeaders } from '@/lib/http/safety-headers';
import { postGrant } from './post-grant';

// The API's hottest write ahead of Next (as the receiver's, lib/console/ingest/ingest-node.ts):
// scripts/server.mjs offers every request to this hook first, and a plain POST /v1/grants is served
// here by the route's own handler (post-grant.ts) — Next's router, its proxy pass and its response
// streaming cost more CPU than creating the grant (issue 42: CPU per grant). What the proxy adds to
// every answer (X-Request-Id, Cache-Control) is added here too; the answer (under 1 KiB) is sent
// as is, not gzipped as Next would for a client that accepts it. Anything else, or a request not
// plainly shaped (a query, no declared length, a body over the limit), goes on to Next.

/** Same name as API_HOOK in scripts/server.mjs. */
const API_HOOK = '__gcApiHook';
const PATH = '/v1/grants';

type THook = (req: IncomingMessage, res: ServerResponse, forwardedFor: string) => boolean;

/** A plain POST /v1/grants: no query, a declared length within the limit, nothing chunked. */
function isPlainCreate(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url !== PATH || req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  return length !== undefined && /^\d{1,7}$/.test(length) && Number(length) <= MAX_BODY_BYTES;
}

/** The body, whole (its length is declared and bounded). */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.once('error', reject);
    req.once('close', () => {
      if (!req.complete) reject(new Error('the client closed the connection before the body arrived'));
    });
  });
}

async function serve(req: IncomingMessage, res: ServerResponse, forwardedFor: string): Promise<void> {
  const body = await readBody(req);
  const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER] as string | undefined);
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i], raw[i + 1]);
  // As scripts/server.mjs and proxy.ts set them for Next.
  headers.set('x-forwarded-for', forwardedFor);
  headers.set(REQUEST_ID_HEADER, requestId);
  let url: URL;
  try {
    url = new URL(PATH, `http://${req.headers.host || 'localhost'}`);
  } catch {
    url = new URL(PATH, 'http://localhost');
  }
  const answer = await postGrant(new NextRequest(url, { method: 'POST', headers, body: new Uint8Array(body) }), { params: Promise.resolve({}) });
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => (out[name] = value));
  Object.assign(out, safetyHeaders(PATH), { [REQUEST_ID_HEADER]: requestId });
  const payload = Buffer.from(await answer.arrayBuffer());
  out['content-length'] = String(payload.length);
  res.writeHead(answer.status, out);
  res.end(payload);
}

/** Lets scripts/server.mjs serve a plain POST /v1/grants without Next: the hook answers true when it took the request. */
export function registerGrantFastPath(): void {
  (globalThis as unknown as Record<string, THook>)[API_HOOK] = (req, res, forwardedFor) => {
    if (!isPlainCreate(req)) return false;
    serve(req, res, forwardedFor).catch((err) => {
      // postGrant answers every outcome itself (problem details); this is only a broken socket.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/problem+json', connection: 'close' });
      res.end();
      req.destroy(err as Error);
    });
    return true;
  };
}
