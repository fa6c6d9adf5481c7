import type { Readable } from 'node:stream';
import { RECEIPT_MAX_BODY_BYTES } from '@/lib/constants';
import { ApiError, problemBody, toProblem } from '@/lib/http/errors';
import { describeForLog } from '@/lib/http/log-error';
import { REQUEST_ID_HEADER } from '@/lib/http/request-id';
import { arrivalHost, sourceAddress } from '@/lib/http/source-address';
import { env } from '@/lib/env';
import { countReceipt } from '@/lib/metrics/count-receipt';
import { receiverForIngest } from '../receivers';
import { learnHost } from '../receivers/learn-host';
import { recordReceipt } from './record-receipt';
import { messageIdOf, verifySignature } from './verify-signature';
import { traceIdForLog } from '@/lib/telemetry/spans';

// The receiver: stores every request to /ingest/{slug} (committed before answering), then answers
// as the receiver is set to. One implementation for both ways in: scripts/server.mjs calls it
// straight from node:http (lib/console/ingest/ingest-node.ts), ahead of Next; under `next dev` the route
// app/ingest/[slug]/route.ts does. Never throws: every outcome is an answer.

export type TIngestRequest = {
  method: string;
  /** The path as sent (still percent-encoded). */
  path: string;
  /** The query as sent, without the `?`. */
  query: string;
  /** The headers as they arrived: names, case, order, repeats. */
  headers: [string, string][];
  /** X-Forwarded-For as scripts/server.mjs set it: the peer, or with TRUST_PROXY a proxy's chain + peer. */
  forwardedFor: string | null;
  requestId: string;
  /** The body: node:http's request itself (read by its events), or any async iterable of chunks (a web stream). */
  body: AsyncIterable<Uint8Array> | null;
};

export type TIngestAnswer = { status: number; headers: Record<string, string>; body: string | null };

const DRAIN_LIMIT = 16 * 1024 * 1024; // past the limit, read (and drop) this much more so the sender sees the 413

type TBody = { bytes: Buffer | null; size: number; oversize: boolean };

/** A Node stream (node:http's request), read by its events: its async iterator cost ~6 % of a receipt's CPU. */
type TNodeBody = AsyncIterable<Uint8Array> & Pick<Readable, 'on' | 'off' | 'pause'>;
const isNodeStream = (body: AsyncIterable<Uint8Array>): body is TNodeBody => typeof (body as Partial<Readable>).pause === 'function';

/** Calls `take` with each chunk until it returns false (left paused, not destroyed: the sender still gets its answer) or the body ends. */
function eachChunk(body: AsyncIterable<Uint8Array>, take: (chunk: Uint8Array) => boolean): Promise<void> {
  if (!isNodeStream(body)) {
    return (async () => {
      for await (const chunk of body) if (!take(chunk)) break;
    })();
  }
  return new Promise((resolve, reject) => {
    const settle = (err?: Error) => {
      body.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    const onData = (chunk: Buffer) => {
      if (take(chunk)) return;
      body.pause();
      settle();
    };
    const onEnd = () => settle();
    const onError = (err: Error) => settle(err);
    const onClose = () => settle(new Error('aborted: the connection closed before the body ended'));
    body.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/** The raw body up to the limit; past it, nothing is kept and the size is what was declared or seen. */
async function readLimited(body: AsyncIterable<Uint8Array> | null, declared: number): Promise<TBody> {
  if (!body) return { bytes: Buffer.alloc(0), size: 0, oversize: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  let oversize = declared > RECEIPT_MAX_BODY_BYTES;
  await eachChunk(body, (chunk) => {
    size += chunk.byteLength;
    if (!oversize && size > RECEIPT_MAX_BODY_BYTES) {
      oversize = true;
      chunks.length = 0;
    }
    if (oversize) return size <= DRAIN_LIMIT;
    chunks.push(chunk);
    return true;
  });
  if (oversize) return { bytes: null, size: Number.isFinite(declared) && declared > size ? declared : size, oversize };
  return { bytes: Buffer.concat(chunks, size), size, oversize };
}

function headerBag(pairs: [string, string][]): Headers {
  const headers = new Headers();
  for (const [name, value] of pairs) {
    try {
      headers.append(name, value);
    } catch {
      /* a header fetch cannot hold is still stored as it came; it is just not read here */
    }
  }
  return headers;
}

async function receive(slug: string, req: TIngestRequest): Promise<TIngestAnswer> {
  const receiver = await receiverForIngest(slug);
  if (!receiver) throw new ApiError('not_found', `No receiver at /ingest/${slug.slice(0, 100)}.`);

  const headers = headerBag(req.headers);
  const body = await readLimited(req.body, Number(headers.get('content-length') ?? NaN));
  const status = body.oversize ? 413 : receiver.responseStatus;
  const verdict = verifySignature(body.bytes, headers, receiver.secrets);
  const host = arrivalHost(headers, env.TRUST_PROXY);
  const receipt = await recordReceipt({
    receiverId: receiver.id,
    method: req.method,
    path: req.path,
    query: req.query,
    headers: req.headers,
    body: body.bytes,
    bodySize: body.size,
    oversize: body.oversize,
    sourceIp: sourceAddress(req.forwardedFor),
    messageId: messageIdOf(headers),
    verdict,
    responseStatus: status,
    host,
  });
  countReceipt(verdict.verdict);
  if (verdict.verdict === 'valid')
    learnHost(receiver.id, host).catch((err) => console.error(`[${req.requestId}] remembering the host: ${describeForLog(err)}`));

  const answerHeaders = { 'x-receipt-id': String(receipt.id), 'cache-control': 'no-store' };
  if (body.oversize) {
    const problem = problemBody(413, `The body is over the limit of ${RECEIPT_MAX_BODY_BYTES} bytes; only its metadata was stored.`);
    return { status: 413, headers: { ...answerHeaders, 'content-type': 'application/problem+json' }, body: JSON.stringify(problem) };
  }
  if (receiver.responseDelayMs > 0) await new Promise((r) => setTimeout(r, receiver.responseDelayMs));
  const noBody = req.method === 'HEAD' || status === 204 || status === 205 || status === 304 || receiver.responseBody === '';
  const contentType = /^\s*[[{]/.test(receiver.responseBody) ? 'application/json' : 'text/plain; charset=utf-8';
  return { status, headers: noBody ? answerHeaders : { ...answerHeaders, 'content-type': contentType }, body: noBody ? null : receiver.responseBody };
}

/** Receives one request for the receiver at `slug`. */
export async function ingest(slug: string, req: TIngestRequest): Promise<TIngestAnswer> {
  let answer: TIngestAnswer;
  try {
    answer = await receive(slug, req);
  } catch (err) {
    const { status, body, headers } = toProblem(err);
    if (status >= 500 && status !== 503) console.error(`[${req.requestId}]${traceIdForLog()} ${describeForLog(err)}`);
    answer = { status, headers: { ...headers, 'content-type': 'application/problem+json', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
  }
  answer.headers[REQUEST_ID_HEADER] = req.requestId;
  return answer;
}
