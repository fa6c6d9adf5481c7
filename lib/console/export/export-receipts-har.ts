import 'server-only';
import { STATUS_CODES } from 'node:http';
import { env } from '@/lib/env';
import { listReceipts, type TReceipt, type TReceiver } from '@/lib/console/receivers';
import { redactValue, REDACTED, scrubSecrets, scrubText } from './redact-export';

// A receiver's receipts as HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), so they open
// in a browser's network panel or any HAR viewer: one entry per stored request with its headers,
// query and body, and the status the receiver answered. Streamed 200 receipts at a time.

const PAGE = 200;
const SENSITIVE_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'x-service-api-key']);

function bodyText(r: TReceipt, includeDonor: boolean): string {
  if (!r.body) return '';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(r.body);
  } catch {
    return `(${r.bodySize} bytes, not UTF-8 text)`;
  }
  if (includeDonor) return scrubSecrets(text);
  try {
    return JSON.stringify(redactValue(JSON.parse(text), false));
  } catch {
    return scrubText(text, false);
  }
}

function harEntry(r: TReceipt, includeDonor: boolean) {
  const headers = r.headers.map(([name, value]) => ({ name, value: SENSITIVE_HEADERS.has(name.toLowerCase()) ? REDACTED : scrubSecrets(value) }));
  const contentType = r.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream';
  const query = new URLSearchParams(r.query.replace(/^\?/, ''));
  const url = new URL(`${r.path}${r.query ? `?${r.query.replace(/^\?/, '')}` : ''}`, env.CONSOLE_PUBLIC_URL).toString();
  const text = bodyText(r, includeDonor);
  return {
    startedDateTime: r.receivedAt.toISOString(),
    time: 0,
    request: {
      method: r.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers,
      queryString: [...query].map(([name, value]) => ({ name, value })),
      ...(r.method === 'GET' || r.method === 'HEAD' ? {} : { postData: { mimeType: contentType, text } }),
      headersSize: -1,
      bodySize: r.bodySize,
    },
    response: {
      status: r.responseStatus,
      statusText: STATUS_CODES[r.responseStatus] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: -1, mimeType: 'text/plain' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
    comment: [
      `receipt ${r.id}`,
      r.messageId ? `message ${r.messageId}` : 'no webhook-id',
      `signature: ${r.verdict}${r.verdictReason ? ` (${r.verdictReason})` : ''}`,
      r.duplicate ? 'duplicate' : '',
      r.oversize ? 'body over the size limit, not stored' : '',
      r.bodyGone?.note ?? '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}

/** The receiver's receipts, newest first, as one HAR document streamed entry by entry. */
export function exportReceiptsHar(receiver: TReceiver, includeDonor: boolean): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let before: number | undefined;
  let started = false;
  let count = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        const head = {
          version: '1.2',
          creator: { name: 'Giving Connect Console', version: '1' },
          comment: `Receipts of receiver ${receiver.name} (${receiver.slug})`,
        };
        controller.enqueue(encoder.encode(`{"log":${JSON.stringify(head).slice(0, -1)},"entries":[`));
        return;
      }
      if (before === -1) {
        controller.enqueue(encoder.encode(']}}\n'));
        return controller.close();
      }
      const page = await listReceipts(receiver.id, { limit: PAGE, before });
      const text = page.receipts.map((r) => `${count++ === 0 ? '' : ','}${JSON.stringify(harEntry(r, includeDonor))}`).join('');
      before = page.nextBefore ?? -1;
      controller.enqueue(encoder.encode(text));
    },
  });
}
