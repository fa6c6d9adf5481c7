// What reaches the log about an error, and what the client hears about a database's refusal.
// A database error is logged with its code, its message (values it quotes are cut out) and the SQL
// text, never the parameters: those hold API keys, signing secrets and donors' details. Anything
// else is logged by name and message with the same redaction, then its stack frames.
import { databaseMessage, redact } from '@/lib/redact';

type TDatabaseError = Error & { code?: string };
type TQueryError = Error & { query: string; params: unknown[]; cause?: unknown };

function isQueryError(err: unknown): err is TQueryError {
  return err instanceof Error && typeof (err as TQueryError).query === 'string' && Array.isArray((err as TQueryError).params);
}

/** The database's own error under a query error (pg and PGlite both carry a SQLSTATE `code`). */
export function databaseErrorOf(err: unknown): TDatabaseError | null {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as TDatabaseError).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as TDatabaseError;
  }
  return null;
}

function frames(err: Error): string {
  return (err.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 12)
    .join('\n');
}

/** One log entry for `err`, safe to write: SQL text but no parameters, no secrets, no donor details. */
export function describeForLog(err: unknown): string {
  if (isQueryError(err)) {
    const db = databaseErrorOf(err.cause);
    const what = db ? `database error ${db.code ?? ''}: ${databaseMessage(db.message)}` : 'database error';
    return `${what}\n  query: ${err.query.replace(/\s+/g, ' ').trim()}\n${frames(err)}`;
  }
  if (err instanceof Error) {
    const db = databaseErrorOf(err);
    const message = db ? databaseMessage(err.message) : redact(err.message);
    const cause = err.cause instanceof Error ? `\n  caused by ${describeForLog(err.cause)}` : '';
    return `${err.name}: ${message}\n${frames(err)}${cause}`;
  }
  return redact(String(err));
}

/**
 * A database refusal the request caused (SQLSTATE class 22, "data exception": a value out of
 * range, a character it cannot store) as a sentence for a 400; null for any other error.
 */
export function dataExceptionDetail(err: unknown): string | null {
  const db = databaseErrorOf(err);
  if (!db?.code?.startsWith('22')) return null;
  if (db.code === '22021' || db.code === '22P05') return 'A value in the request holds a character that cannot be stored.';
  if (db.code === '22001') return 'A value in the request is too long.';
  return 'A value in the request is out of the range this service accepts.';
}
