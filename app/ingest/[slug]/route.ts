// Receiver: stores every request to /ingest/{slug} (before answering), then answers as the receiver is set to.
import { type NextRequest } from 'next/server';
import { RAW_HEADERS_HEADER, RECEIPT_MAX_BODY_BYTES } from '@/lib/constants';
import { ApiError } from '@/lib/http/errors';
import { route } from '@/lib/http/respond';
import { receiverForIngest } from '@/lib/console/receivers';
import { recordReceipt } from '@/lib/console/record-receipt';
import { sourceAddress } from '@/lib/console/source-address';
import { messageIdOf, verifySignature } from '@/lib/console/verify-signature';

export const dynamic = 'force-dynamic';

const DRAIN_LIMIT = 16 * 1024 * 1024; // past the limit, read (and drop) this much more so the sender sees the 413

type TBody = { bytes: Buffer | null; size: number; oversize: boolean };

/** The raw body up to the limit; past it, nothing is kept and the size is what was declared or seen. */
async function readLimited(req: NextRequest): Promise<TBody> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (!req.body) return { bytes: Buffer.alloc(0), size: 0, oversize: false };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let oversize = declared > RECEIPT_MAX_BODY_BYTES;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (!oversize && size > RECEIPT_MAX_BODY_BYTES) {
        oversize = true;
        chunks.length = 0;
      }
      if (oversize) {
        if (size > DRAIN_LIMIT) break;
        continue;
      }
      chunks.push(value);
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  if (oversize) return { bytes: null, size: Number.isFinite(declared) && declared > size ? declared : size, oversize };
  return { bytes: Buffer.concat(chunks, size), size, oversize };
}

/** The headers as they arrived — names, case, order, repeats — as scripts/server.mjs passes them on; Next's view otherwise. */
function arrivedHeaders(req: NextRequest): [string, string][] {
  const raw = req.headers.get(RAW_HEADERS_HEADER);
  if (raw) {
    try {
      const pairs: unknown = JSON.parse(decodeURIComponent(raw));
      if (Array.isArray(pairs) && pairs.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string'))) {
        return pairs as [string, string][];
      }
    } catch {
      /* fall through */
    }
  }
  return [...req.headers.entries()].filter(([name]) => name !== RAW_HEADERS_HEADER);
}

const handler = route<{ slug: string }>(async ({ req, params }) => {
  const receiver = await receiverForIngest(params.slug);
  if (!receiver) throw new ApiError('not_found', `No receiver at /ingest/${params.slug}.`);

  const body = await readLimited(req);
  const status = body.oversize ? 413 : receiver.responseStatus;
  const receipt = await recordReceipt({
    receiverId: receiver.id,
    method: req.method,
    path: req.nextUrl.pathname,
    query: req.nextUrl.search.replace(/^\?/, ''),
    headers: arrivedHeaders(req),
    body: body.bytes,
    bodySize: body.size,
    oversize: body.oversize,
    // scripts/server.mjs sets X-Forwarded-For to the peer (or, with TRUST_PROXY, a proxy's chain + peer).
    sourceIp: sourceAddress(req.headers.get('x-forwarded-for')),
    messageId: messageIdOf(req.headers),
    verdict: verifySignature(body.bytes, req.headers, receiver.secrets),
    responseStatus: status,
  });

  const headers = { 'x-receipt-id': String(receipt.id), 'cache-control': 'no-store' };
  if (body.oversize) {
    return new Response(
      JSON.stringify({ type: 'about:blank', title: 'Payload Too Large', status: 413, detail: `The body is over the limit of ${RECEIPT_MAX_BODY_BYTES} bytes; only its metadata was stored.` }),
      { status: 413, headers: { ...headers, 'content-type': 'application/problem+json' } },
    );
  }
  if (receiver.responseDelayMs > 0) await new Promise((r) => setTimeout(r, receiver.responseDelayMs));
  const noBody = req.method === 'HEAD' || status === 204 || status === 205 || status === 304 || receiver.responseBody === '';
  const contentType = /^\s*[[{]/.test(receiver.responseBody) ? 'application/json' : 'text/plain; charset=utf-8';
  return new Response(noBody ? null : receiver.responseBody, { status, headers: noBody ? headers : { ...headers, 'content-type': contentType } });
});

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
