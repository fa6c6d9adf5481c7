import { PgPreparedQuery } from 'drizzle-orm/pg-core';
import { databaseMessage } from '@/lib/redact';

// A failed query's error names its parameters (drizzle's message "Failed query: … params: …", the
// driver's `params` and `detail`: "Key (email)=(donor@example.org) already exists"), and whatever
// logs it (ours, Next's own logging of a page error) would print API keys, signing secrets and
// donors' details. Every failed query's error is quieted where it is made: the message keeps the
// SQL text, the database's own message loses the values it quotes ('invalid input syntax for type
// integer: "…"'), and the parameters stay on the error for code that asks, hidden from the log.

const HIDDEN = ['params', 'detail', 'where', 'parameters'] as const;

function hideValues(err: unknown): void {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    for (const key of HIDDEN) {
      if (Object.hasOwn(e, key)) Object.defineProperty(e, key, { enumerable: false, value: (e as unknown as Record<string, unknown>)[key] });
    }
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      const message = databaseMessage(e.message);
      e.stack = (e.stack ?? '').replace(e.message, message);
      e.message = message;
    }
    const query = (e as { query?: unknown }).query;
    if (typeof query === 'string' && e.message.startsWith('Failed query:')) {
      const message = `Failed query: ${query}`;
      e.stack = (e.stack ?? '').replace(e.message, message);
      e.message = message;
    }
  }
}

type TQueryWithCache = (this: unknown, ...args: unknown[]) => Promise<unknown>;
const proto = PgPreparedQuery.prototype as unknown as { queryWithCache: TQueryWithCache; __gcQuiet?: boolean };

/** Installs the quieting once per copy of drizzle (idempotent). */
export function quietQueryErrors(): void {
  if (proto.__gcQuiet) return;
  const original = proto.queryWithCache;
  if (typeof original !== 'function') return;
  proto.queryWithCache = async function (this: unknown, ...args: unknown[]) {
    try {
      return await original.apply(this, args);
    } catch (err) {
      hideValues(err);
      throw err;
    }
  };
  proto.__gcQuiet = true;
}
