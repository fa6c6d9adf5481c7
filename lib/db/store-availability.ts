import { processSingleton } from '@/lib/process-singleton';

// Whether the database can be reached, as this process last saw it. An error that says the store
// is gone or cannot take the write (the server stopped or restarting, the connection lost, the
// disk full) is not a bug of the request: the caller gets a 503 with Retry-After and tries again,
// and the process keeps running. The log gets one line when the store goes away and one when it
// is back, not one per failed query.

/** Seconds a client is told to wait (Retry-After) while the store is unavailable. */
export const STORE_RETRY_AFTER_S = 5;

// Node's codes for a connection that could not be made or was lost.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOSPC',
  'EIO',
]);
// SQLSTATE: 08 connection exception, 53 insufficient resources (disk full, out of memory, too many
// connections), 57P01-57P03 admin/crash shutdown and "cannot connect now" (starting or stopping).
const SQLSTATE = /^(08...|53...|57P0[123])$/;
// node-postgres says these in words only.
const MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused)/i;

/** Whether `err` (or an error it was caused by) says the store is unreachable or cannot write now, rather than that the statement is wrong. */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
    if (MESSAGES.test(e.message)) return true;
    // AggregateError (a host with several addresses, all refused).
    if (e instanceof AggregateError && e.errors.some(isStoreUnavailable)) return true;
  }
  return false;
}

/** A short reason for the log: the code and the first line of the message, nothing of the statement. */
export function unavailableReason(err: unknown): string {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return `${code}: ${e.message.split('\n')[0].slice(0, 200)}`;
    if (MESSAGES.test(e.message)) return e.message.split('\n')[0].slice(0, 200);
  }
  return err instanceof Error ? err.message.split('\n')[0].slice(0, 200) : String(err);
}

type TState = { downSince: number | null; lastErrorAt: number; reason: string | null; log: (line: string) => void; canRecover: () => boolean };

const state = processSingleton('store-availability', (): TState => ({
  downSince: null,
  lastErrorAt: 0,
  reason: null,
  log: (line) => console.error(line),
  canRecover: () => true,
}));

/**
 * A server going down ends its connections one by one over a few milliseconds, and a statement
 * sent before (or between) those ends may still be answered: only an answer to a statement begun
 * after the latest failure, and this long after it, says the store is back.
 */
export const STORE_SETTLE_MS = 300;

/** Notes a failed statement or connection; true (and one log line, the first time) when it means the store is unavailable. */
export function noteStoreError(err: unknown): boolean {
  if (!isStoreUnavailable(err)) return false;
  state.lastErrorAt = Date.now();
  if (state.downSince === null) {
    state.downSince = Date.now();
    state.reason = unavailableReason(err);
    state.log(`database unavailable (${state.reason}); answering 503 with Retry-After until it is back`);
  }
  return true;
}

/** Notes that the store answered a statement begun at `startedAt`; logs once when it was unavailable before. */
export function noteStoreAnswered(startedAt = Date.now(), now = Date.now()): void {
  if (state.downSince === null) return;
  if (startedAt <= state.lastErrorAt || now - state.lastErrorAt < STORE_SETTLE_MS || !state.canRecover()) return;
  const seconds = ((now - state.downSince) / 1000).toFixed(1);
  state.downSince = null;
  state.reason = null;
  state.log(`database available again after ${seconds} s`);
}

/** Since when (ms epoch) the store has been unavailable, and why; null while it answers. */
export function storeOutage(): { since: number; reason: string } | null {
  return state.downSince === null ? null : { since: state.downSince, reason: state.reason ?? 'unknown' };
}

/** Where the two state lines go (tests). */
export function setStoreAvailabilityLog(log: (line: string) => void): void {
  state.log = log;
}

/**
 * What else must hold before an answer means the store is back: the embedded store's disk guard
 * (disk-guard.ts) says a read answered while writes are refused for want of space does not.
 */
export function setStoreRecoveryCheck(canRecover: () => boolean): void {
  state.canRecover = canRecover;
}
