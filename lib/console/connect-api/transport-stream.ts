import type { TOperation } from './contract';
import { ConnectApiTransport, header, type TBody, type TCall } from './transport';

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
   * A GET of `url` answered with NDJSON, each line checked by the operation's `check` (which
   * normalises it in place or names the field that does not fit); errors before the first byte
   * are thrown as any call throws them.
   */
  protected async streamLines<T>(call: TCall, url: string, headers: Record<string, string>, check: TOperation['check']): Promise<TLineStream<T>> {
    const res = await this.exchange(call, 'GET', url, headers, undefined, true);
    const requestId = header(res, 'x-request-id');
    return this.lines(res.body!, (text) => {
      const value = parseLine(text);
      const checked = check(value);
      if (!checked.ok) throw this.shapeError(call.operation, requestId, checked.where);
      return value as T;
    });
  }

  private lines<T>(body: TBody, check: (text: string) => T): TLineStream<T> {
    let chars = 0;
    const checkAll = (lines: string[]): T[] => {
      const out: T[] = [];
      for (const line of lines) {
        chars += line.length + 1;
        if (line) out.push(check(line));
      }
      return out;
    };
    async function* read(): AsyncGenerator<T[]> {
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
    async function* each(): AsyncGenerator<T> {
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
