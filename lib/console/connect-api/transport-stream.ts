import { request } from 'undici';
import type { z } from 'zod';
import { ConnectApiTransport, type TCall } from './transport';

// Streamed answers (EXT NDJSON): the request is sent as any call is (token, one refresh on 401,
// retries until the answer starts, EXT 404s told apart), then its body is read one line at a time
// as the caller asks: nothing is read ahead of the caller beyond the socket's buffers, so a slow
// reader slows the service's reading rather than filling this process's memory.

/**
 * An open NDJSON answer: its lines, parsed and checked, as an async iterator — or, through
 * `batches()`, the lines of each piece the connection delivered, several at a time (one await per
 * piece rather than per line: an export takes hundreds of thousands); `chars` counts the
 * characters of those taken so far; `close` drops the connection. Use one of the two iterators.
 */
export type TLineStream<T> = AsyncIterable<T> & { readonly chars: number; batches: () => AsyncIterator<T[]>; close: () => void };

function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export class ConnectApiStreamTransport extends ConnectApiTransport {
  /**
   * A GET answered with NDJSON, each line parsed with `schema`; errors before the first byte are
   * thrown as `call` throws them. `is`: a cheap check that stands in for the schema's parse on the
   * common path — a line it passes is taken as it is, any other is parsed with the schema (which
   * either normalises it or fails naming the field).
   */
  protected async streamLines<S extends z.ZodType>(call: Omit<TCall, 'method' | 'body'>, schema: S, is?: (v: unknown) => v is z.output<S>): Promise<TLineStream<z.output<S>>> {
    const url = this.url(call.path, call.query);
    let refreshed = false;
    for (;;) {
      const token = await this.accessToken();
      const headers = { accept: 'application/x-ndjson, application/problem+json', authorization: `Bearer ${token}`, ...call.headers };
      let body: AsyncIterable<Buffer> & { destroy: () => void } = null!;
      const res = await this.sendWithRetry(call.operation, true, url, async (requestId) => {
        const r = await request(url, { method: 'GET', headers: { ...headers, 'x-request-id': requestId }, dispatcher: this.dispatcher });
        const ok = r.statusCode >= 200 && r.statusCode < 300;
        if (ok) body = r.body;
        return { status: r.statusCode, headers: r.headers, text: ok ? '' : await r.body.text() };
      });
      if (res.status === 401 && !refreshed) {
        refreshed = true;
        this.invalidate(token);
        continue;
      }
      if (res.status < 200 || res.status >= 300) throw await this.apiError({ ...call, method: 'GET' }, res);
      return this.lines(call.operation, res, body, schema, is);
    }
  }

  private lines<S extends z.ZodType>(
    operation: string,
    res: Parameters<ConnectApiTransport['shapeError']>[1],
    body: AsyncIterable<Buffer> & { destroy: () => void },
    schema: S,
    is: ((v: unknown) => v is z.output<S>) | undefined,
  ): TLineStream<z.output<S>> {
    const shapeError = (error: z.ZodError) => this.shapeError(operation, res, error);
    const check = (text: string): z.output<S> => {
      const value = parseLine(text);
      if (is?.(value)) return value;
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw shapeError(parsed.error);
      return parsed.data;
    };
    let chars = 0;
    const checkAll = (lines: string[]): z.output<S>[] => {
      const out: z.output<S>[] = [];
      for (const line of lines) {
        chars += line.length + 1;
        if (line) out.push(check(line));
      }
      return out;
    };
    async function* read(): AsyncGenerator<z.output<S>[]> {
      const decoder = new TextDecoder();
      let rest = '';
      try {
        for await (const chunk of body) {
          const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
          rest = lines.pop()!;
          if (lines.length) yield checkAll(lines);
        }
        rest += decoder.decode();
        if (rest.trim()) yield checkAll([rest]);
      } finally {
        body.destroy();
      }
    }
    const pieces = read();
    async function* each(): AsyncGenerator<z.output<S>> {
      for await (const piece of pieces) yield* piece;
    }
    const iterator = each();
    return {
      [Symbol.asyncIterator]: () => iterator,
      batches: () => pieces,
      get chars() {
        return chars;
      },
      close: () => body.destroy(),
    };
  }
}
