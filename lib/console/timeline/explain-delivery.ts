import type { TReconciliation } from './reconcile';
import { isoTime } from './iso-time';
import { retriesStoppedNote } from '../retention/body-gone';
import { formatUtcClock } from '@/lib/console/format';

// One plain-language sentence per (message, webhook), derived from recorded facts only: the
// webhook's settings, this webhook's delivery of the message, its attempts and what arrived at its
// receiver. Pure (the clock is passed in), so the table of cases is tested without a browser.

/** The contract's schedule: one first attempt and seven retries. */
export const SCHEDULED_ATTEMPTS = 8;

export type TExplainAttempt = { timestamp: string; responseStatusCode: number; responseDurationMs?: number; response?: string; responseGone?: unknown };

export type TExplainInput = {
  state: TReconciliation;
  now: Date;
  message: { eventType: string; timestamp: string };
  webhook: {
    eventTypes: string[];
    createdAt: string;
    disabled: boolean;
    disabledReason: string | null;
    disabledAt: string | null;
    /** EXT pause: paused since, and by whom (null: not by this console). */
    paused?: boolean;
    pausedAt?: string | null;
    pausedBy?: string | null;
  } | null;
  delivery: {
    status: string;
    attemptCount: number;
    nextAttempt: string | null;
    /** Newest last. Only the newest may be known (the message list carries it). */
    attempts: TExplainAttempt[];
    /** EXT: why the service stopped its retries early (a donor erasure, retention), and when. */
    retriesStopped?: { reason: string; at: string } | null;
  } | null;
  receiverName: string | null;
  /** Oldest first; a suspicious one (reconcile.ts) is said apart from the delivery's story. */
  receipts: { receivedAt: string; verdict: string; verdictReason: string; responseStatus: number; suspicious?: boolean }[];
  /** Short SHA-256 fingerprints of the secrets, when both sides are known (signature failures). */
  fingerprints?: { webhook: string | null; receiver: string[] } | null;
  /** Other webhooks with exactly this URL (their arrivals cannot be told apart from this one's). */
  sharedUrlWith?: string[];
  /**
   * 'relative' (screens, re-read every few seconds): "in 3 min", "12:04:05". 'absolute' (files,
   * read long after): ISO 8601 instants only, "at 2026-11-24T12:07:05.000Z", which never go stale.
   */
  times?: TExplainTimes;
};

export type TExplainTimes = 'relative' | 'absolute';

/** "12:04:05", or "Nov 22 12:04:05" when not on the day of `now` (UTC). */
export const clock = (iso: string, now: Date): string => formatUtcClock(iso, now, true);

/** "in 3 min", "in 40 s", "in 2 h", "now" when due, "overdue by 5 min" when a minute late (a stalled worker). */
export function relative(iso: string, now: Date): string {
  const ms = Date.parse(iso) - now.getTime();
  if (Number.isNaN(ms)) return iso;
  if (ms < -60_000) return `overdue by ${relative(new Date(now.getTime() - ms).toISOString(), now).replace(/^in /, '')}`;
  if (ms <= 1000) return 'now';
  const s = Math.round(ms / 1000);
  if (s < 90) return `in ${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `in ${min} min`;
  const h = Math.round(min / 60);
  return h < 36 ? `in ${h} h` : `in ${Math.round(h / 24)} d`;
}

/** The instant `iso`, as the sentence's readers need it: a clock on screen, ISO 8601 in a file. */
type TTimeWords = { at: (iso: string) => string; due: (iso: string) => string };

function timeWords(input: { now: Date; times?: TExplainTimes }): TTimeWords {
  if (input.times === 'absolute') {
    // An ISO instant already in the one form is used as it is (no Date: an export says several a line).
    const isoOf = (iso: string) => {
      try {
        return isoTime(iso);
      } catch {
        return iso; // not a time: said as it came
      }
    };
    return { at: isoOf, due: (iso) => `at ${isoOf(iso)}` };
  }
  return { at: (iso) => clock(iso, input.now), due: (iso) => relative(iso, input.now) };
}

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`);
const attemptsWord = (n: number) => (n === 1 ? 'one attempt' : `${n} attempts`);

function quote(body: string | undefined, max = 80): string {
  const text = (body ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return '';
  return ` '${text.length > max ? `${text.slice(0, max - 1)}…` : text}'`;
}

function lastAnswer(attempt: TExplainAttempt | undefined): string {
  if (!attempt) return '';
  // Retention emptied the answer (or the error): say so rather than guess.
  if (attempt.responseGone) {
    const gone = (attempt.responseGone as { kind?: string }).kind === 'erased' ? 'erased' : 'purged';
    return attempt.responseStatusCode === 0 ? `no response (the error was ${gone})` : `${attempt.responseStatusCode} (its body ${gone})`;
  }
  if (attempt.responseStatusCode === 0) return `no response${attempt.response ? ` (${attempt.response.slice(0, 120)})` : ' (network error or timeout)'}`;
  return `${attempt.responseStatusCode}${quote(attempt.response)}`;
}

/**
 * "; next attempt (4 of 8) in 3 min" while retries remain. A disabled webhook's waiting messages
 * are not attempted: when one falls due the service ends it failed, unattempted (unless the
 * webhook was enabled again by then).
 */
function retryNote(d: NonNullable<TExplainInput['delivery']>, t: TTimeWords, w?: TExplainInput['webhook']): string {
  if (d.status === 'pending' && w && isPaused(w)) return `; waiting: webhook ${pausedNote(w, t)}; the next attempt goes out when it is resumed`;
  if (d.status === 'pending' && w?.disabled) {
    const due = d.nextAttempt ? ` ${t.due(d.nextAttempt)}` : '';
    return `; no further attempts: the webhook was ${disabledNote(w, t)}, so this message ends failed when its retry falls due${due} unless the webhook is enabled first`;
  }
  if (d.status === 'pending' && d.nextAttempt) {
    const n = d.attemptCount + 1;
    const of = n <= SCHEDULED_ATTEMPTS ? ` (${n} of ${SCHEDULED_ATTEMPTS})` : '';
    return `; next attempt${of} ${t.due(d.nextAttempt)}`;
  }
  if (d.status === 'sending') return '; an attempt is under way';
  if (d.status === 'failed' && d.retriesStopped) return `; ${retriesStoppedNote(d.retriesStopped)}`;
  if (d.status === 'failed') return w?.disabled ? `; no retries: the webhook was ${disabledNote(w, t)}` : '; no retries left';
  return '';
}

const isPaused = (w: NonNullable<TExplainInput['webhook']>): boolean => Boolean(w.paused && w.pausedAt && !w.disabled);

/** "paused since 14:02:05 by ops@example.org" (by whom: this console's audit log; else "through the API"). */
function pausedNote(w: NonNullable<TExplainInput['webhook']>, t: TTimeWords): string {
  const by = w.pausedBy ? ` by ${w.pausedBy}` : w.pausedBy === null ? ' through the API' : '';
  return `paused since ${t.at(w.pausedAt!)}${by}`;
}

function disabledNote(w: NonNullable<TExplainInput['webhook']>, t: TTimeWords): string {
  const at = w.disabledAt ? ` at ${t.at(w.disabledAt)}` : '';
  return `disabled${at}${w.disabledReason ? ` (${w.disabledReason})` : ''}`;
}

function whyNotSent(input: TExplainInput, t: TTimeWords): string {
  const { webhook: w, message: m, delivery: d } = input;
  if (!w) return 'not sent: the service did not queue this message for this webhook';
  const created = Date.parse(w.createdAt);
  const at = Date.parse(m.timestamp);
  if (created > at) return `not sent: the webhook was created at ${t.at(w.createdAt)}, after this message (${t.at(m.timestamp)})`;
  if (d && d.attemptCount === 0 && d.status === 'failed') {
    return w.disabled
      ? `not sent: queued, but the webhook was ${disabledNote(w, t)} before the first attempt`
      : 'not sent: queued, but dropped before the first attempt (the webhook was disabled at the time)';
  }
  // (No event types known: the service shows no webhook settings, so this cannot be told.)
  if (w.eventTypes.length && !w.eventTypes.includes(m.eventType)) return `not sent: this webhook is not subscribed to ${m.eventType}`;
  if (w.disabled && (!w.disabledAt || Date.parse(w.disabledAt) <= at)) return `not sent: the webhook was ${disabledNote(w, t)}`;
  if (w.disabled) return `not sent: the service did not queue it for this webhook; the webhook is ${disabledNote(w, t)}`;
  return 'not sent: the service did not queue it for this webhook (disabled or not subscribed when the message was made)';
}

function signatureProblem(input: TExplainInput, t: TTimeWords): string {
  const r = input.receipts[input.receipts.length - 1];
  const arrived = `arrived ${t.at(r.receivedAt)}`;
  const f = input.fingerprints;
  switch (r.verdict) {
    case 'no secret configured':
      return `${arrived} but was not verified: the receiver has no signing secret${f?.webhook ? ` (the webhook's is ${f.webhook}…)` : ''}`;
    case 'missing headers':
      return `${arrived} but could not be verified: ${r.verdictReason || 'signature headers missing'}`;
    case 'timestamp outside tolerance':
      return `${arrived} but the signature was refused: ${r.verdictReason || 'the timestamp is outside the 5-minute tolerance'}`;
    default: {
      if (f?.webhook && f.receiver.length && !f.receiver.includes(f.webhook)) {
        return `${arrived} but the signature did not verify: the receiver holds a different secret (fingerprints ${f.webhook}… vs ${f.receiver.map((x) => `${x}…`).join(', ')})`;
      }
      if (f?.webhook && f.receiver.includes(f.webhook)) {
        return `${arrived} but the signature did not verify; the receiver holds the webhook's secret (${f.webhook}…) now, so a secret changed after this arrival or the body was altered on the way: resend to check`;
      }
      return `${arrived} but the signature did not verify${r.verdictReason ? `: ${r.verdictReason}` : ''}`;
    }
  }
}

/**
 * What a support engineer does about copies that did not verify beside a verified delivery: not a
 * resend (the donation arrived; another copy would be a second one in the CRM).
 */
export const SUSPICIOUS_ADVICE = 'do not resend: the delivery verified; check who else posts to this receiver and rotate its URL and signing secret';

function suspiciousNote(arrivals: TExplainInput['receipts'], t: TTimeWords): string {
  const when = arrivals.map((r) => `${t.at(r.receivedAt)}${r.verdictReason ? ` (${r.verdictReason})` : ''}`).join(', ');
  const n = arrivals.length;
  return `${n === 1 ? 'a suspicious arrival' : `${n} suspicious arrivals`} at ${when}: ${n === 1 ? 'a copy' : 'copies'} with this message id whose signature did not verify, not from the service — ${SUSPICIOUS_ADVICE}`;
}

export function explainDelivery(input: TExplainInput): string {
  const suspicious = input.receipts.filter((r) => r.suspicious);
  const own = suspicious.length ? { ...input, receipts: input.receipts.filter((r) => !r.suspicious) } : input;
  let sentence = explainState(own);
  const shared = input.sharedUrlWith ?? [];
  if (shared.length && own.receipts.length) {
    sentence = `${sentence} (webhook${shared.length > 1 ? 's' : ''} ${shared.join(', ')} ha${shared.length > 1 ? 've' : 's'} this same URL: the receiver cannot tell their arrivals apart, so each shows them all)`;
  }
  return suspicious.length ? `${sentence}; ${suspiciousNote(suspicious, timeWords(input))}` : sentence;
}

function explainState(input: TExplainInput): string {
  const { state, delivery: d, receipts } = input;
  const t = timeWords(input);
  const attempts = d?.attempts ?? [];
  const last = attempts[attempts.length - 1];
  const sent = d ? `sent ${times(d.attemptCount)}` : '';
  const at = input.receiverName ? ` at receiver “${input.receiverName}”` : '';
  switch (state) {
    case 'not-sent':
      return whyNotSent(input, t);
    case 'not-sent-yet': {
      if (!d) return 'not sent yet';
      if (d.status === 'sending') return `sending: attempt 1 of ${SCHEDULED_ATTEMPTS} under way`;
      if (input.webhook && isPaused(input.webhook))
        return `waiting: webhook ${pausedNote(input.webhook, t)}; attempt 1 of ${SCHEDULED_ATTEMPTS} goes out when it is resumed`;
      if (input.webhook?.disabled)
        return `queued, but not to be sent: the webhook was ${disabledNote(input.webhook, t)}; the message ends failed when it falls due unless the webhook is enabled first`;
      return `queued: attempt 1 of ${SCHEDULED_ATTEMPTS} ${d.nextAttempt ? t.due(d.nextAttempt) : 'soon'}`;
    }
    case 'network-error':
      return `${sent}; never reached the receiver: ${lastAnswer(last)}${retryNote(d!, t, input.webhook)}`;
    case 'sent-not-received':
      return `${sent}${last ? `, last answered ${lastAnswer(last)}` : ''}; nothing with this message id arrived${at}: something else answered, or the receiver is on another console${retryNote(d!, t, input.webhook)}`;
    case 'not-observed':
      return `${sent}${last ? `, last answered ${lastAnswer(last)}` : ''}; the URL is not a receiver of this console, so what arrived is not observed here${retryNote(d!, t, input.webhook)}`;
    case 'received-bad-signature':
      return `${signatureProblem(input, t)}${d ? retryNote(d, t, input.webhook) : ''}`;
    case 'received-answered-error': {
      const r = receipts[receipts.length - 1];
      if (r.responseStatus >= 200 && r.responseStatus < 300) {
        return `${sent}; arrived ${t.at(r.receivedAt)} and the receiver answered ${r.responseStatus}, but the service recorded ${last ? lastAnswer(last) : 'a failure'} (an answer after its timeout?)${retryNote(d!, t, input.webhook)}`;
      }
      return `${sent}; the receiver answered ${last && last.responseStatusCode === r.responseStatus ? lastAnswer(last) : r.responseStatus}${retryNote(d!, t, input.webhook)}`;
    }
    case 'duplicate': {
      const n = receipts.length;
      return n > (d?.attemptCount ?? 0)
        ? `arrived ${times(n)}${at} for ${attemptsWord(d?.attemptCount ?? 0)}: a duplicate the receiver must tolerate`
        : `arrived again${at} after it had been acknowledged with a 2xx (a resend or a retry of an attempt that timed out)`;
    }
    case 'recording': {
      const r = receipts[receipts.length - 1];
      return `arrived ${t.at(r.receivedAt)}${at} and the receiver answered ${r.responseStatus}; the service is recording the outcome of that attempt`;
    }
    case 'delivered-and-received': {
      const r = receipts[receipts.length - 1];
      const retries = d && d.attemptCount > 1 ? ` after ${d.attemptCount - 1} failed attempt${d.attemptCount > 2 ? 's' : ''}` : '';
      return `delivered${retries}: arrived ${t.at(r.receivedAt)}${at}, signature valid, answered ${r.responseStatus}`;
    }
  }
}
