import type { TAttempt, TMessage } from './schemas';

// A cheap check of a streamed message (EXT GET …/messages/stream: one per line, hundreds of
// thousands in an export) that stands in for ZMessage's parse on the common path: it accepts only
// what ZMessage accepts and would give back unchanged, so a line it passes is used as it is; any
// other line goes to the full parse, which either normalises it or fails loudly naming the field.

const isString = (v: unknown): v is string => typeof v === 'string';
const isTimestamp = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isOptional = <T>(v: unknown, is: (x: unknown) => x is T): boolean => v === undefined || is(v);

function isPurged(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v !== 'object' || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  return isString(p.at) && isOptional(p.retention, isString) && (p.size === undefined || typeof p.size === 'number') && isOptional(p.sha256, isString) && isOptional(p.reason, isString);
}

function isStopped(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (typeof v !== 'object' || Array.isArray(v)) return false;
  const p = v as Record<string, unknown>;
  return isString(p.reason) && isTimestamp(p.at);
}

export function isAttempt(v: unknown): v is TAttempt {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const a = v as Record<string, unknown>;
  return (
    isString(a.id) &&
    isString(a.url) &&
    isTimestamp(a.timestamp) &&
    isString(a.status) &&
    Number.isInteger(a.responseStatusCode) &&
    typeof a.responseDurationMs === 'number' &&
    Number.isFinite(a.responseDurationMs) &&
    isString(a.triggerType) &&
    isOptional(a.response, isString) &&
    isPurged(a.responsePurged)
  );
}

/** True when `v` is a message exactly as ZMessage would give it back (its nextAttempt null rather than absent). */
export function isMessage(v: unknown): v is TMessage {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const m = v as Record<string, unknown>;
  return (
    isString(m.id) &&
    isString(m.eventType) &&
    isTimestamp(m.timestamp) &&
    isString(m.status) &&
    (m.nextAttempt === null || isTimestamp(m.nextAttempt)) &&
    Number.isInteger(m.attemptCount) &&
    isOptional(m.eventId, isString) &&
    (m.tags === undefined || (Array.isArray(m.tags) && m.tags.every(isString))) &&
    (m.lastAttempt === undefined || m.lastAttempt === null || isAttempt(m.lastAttempt)) &&
    (m.attempts === undefined || (Array.isArray(m.attempts) && m.attempts.every(isAttempt))) &&
    isStopped(m.retriesStopped)
  );
}
