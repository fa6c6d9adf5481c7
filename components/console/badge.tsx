import type { ReactNode } from 'react';
import { RECONCILIATION_LABELS, type TReconciliation } from '@/lib/console/timeline/reconcile';

// Small status pills. Pure components: usable from server and client components alike.

export type TTone = 'gray' | 'green' | 'red' | 'amber' | 'blue' | 'violet' | 'orange';

const TONES: Record<TTone, string> = {
  gray: 'bg-slate-100 text-slate-700 ring-slate-300/60',
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/25',
  red: 'bg-rose-50 text-rose-800 ring-rose-600/25',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/25',
  violet: 'bg-violet-50 text-violet-800 ring-violet-600/25',
  orange: 'bg-orange-50 text-orange-800 ring-orange-600/30',
};

/** `wrap`: a badge of a few words that may break over lines in a narrow column instead of overflowing it. */
export function Badge({ tone = 'gray', children, title, dot, wrap }: { tone?: TTone; children: ReactNode; title?: string; dot?: boolean; wrap?: boolean }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${wrap ? 'max-w-full rounded-md' : 'whitespace-nowrap rounded-full'} ${TONES[tone]}`}
    >
      {dot ? <span className="size-1.5 rounded-full bg-current opacity-70" aria-hidden /> : null}
      {children}
    </span>
  );
}

const MESSAGE_TONES: Record<string, TTone> = { success: 'green', failed: 'red', sending: 'blue', pending: 'amber' };
export function MessageStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={MESSAGE_TONES[status] ?? 'gray'} dot>
      {status}
    </Badge>
  );
}

export function AttemptStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={status === 'success' ? 'green' : status === 'failed' ? 'red' : 'gray'} dot>
      {status}
    </Badge>
  );
}

export function HttpCodeBadge({ code }: { code: number }) {
  const tone: TTone = code === 0 ? 'gray' : code < 300 ? 'green' : code < 400 ? 'amber' : 'red';
  return (
    <Badge tone={tone} title={code === 0 ? 'No response (network error or timeout)' : `HTTP ${code}`}>
      <span className="font-mono">{code === 0 ? 'no response' : code}</span>
    </Badge>
  );
}

const VERDICT_TONES: Record<string, TTone> = {
  valid: 'green',
  'invalid signature': 'red',
  'timestamp outside tolerance': 'orange',
  'missing headers': 'amber',
  'no secret configured': 'gray',
};
export function VerdictBadge({ verdict, reason }: { verdict: string; reason?: string }) {
  return (
    <Badge tone={VERDICT_TONES[verdict] ?? 'gray'} title={reason || undefined}>
      {verdict === 'valid' ? '✓ ' : ''}
      {verdict}
    </Badge>
  );
}

// Green only for the clean case; red where a request was lost or refused as not ours; amber where it
// arrived but something is off; gray before anything was sent; violet when this console cannot see.
const RECONCILIATION: Record<TReconciliation, { tone: TTone; title: string }> = {
  'delivered-and-received': { tone: 'green', title: 'The service recorded a successful attempt and the receiver stored the request with a valid signature.' },
  recording: {
    tone: 'green',
    title: 'The receiver stored the request with a valid signature and answered 2xx a moment ago; the service has not finished recording that attempt.',
  },
  'received-bad-signature': { tone: 'red', title: 'The request arrived, but its signature did not verify with the receiver’s secret.' },
  'sent-not-received': { tone: 'red', title: 'The service says it sent the request, but nothing with this message id reached the webhook’s receiver.' },
  'network-error': { tone: 'red', title: 'Every attempt ended without a response: the request never reached the receiver.' },
  'received-answered-error': { tone: 'amber', title: 'The request arrived, but the receiver answered with an error (or too late), so the service retries.' },
  duplicate: { tone: 'amber', title: 'The message arrived more often than the service sent it, or again after a 2xx.' },
  'not-sent-yet': { tone: 'gray', title: 'Queued: no attempt yet.' },
  'not-sent': { tone: 'gray', title: 'The service never sent this message to this webhook.' },
  'not-observed': { tone: 'violet', title: 'The webhook’s URL is not a receiver of this console, so what arrived cannot be checked here.' },
};
/** `wrap`: the label may break onto a second line (a narrow card on a phone). */
export function ReconciliationBadge({ value, wrap }: { value: TReconciliation; wrap?: boolean }) {
  const r = RECONCILIATION[value];
  return (
    <Badge tone={r.tone} title={r.title} wrap={wrap}>
      {RECONCILIATION_LABELS[value]}
    </Badge>
  );
}

/** The per-receipt flag (set by the receiver when it stored the request). */
export function DuplicateBadge() {
  return (
    <Badge
      tone="amber"
      title="This message id had already reached this receiver and been acknowledged with a 2xx. Retries after an error answer are not flagged."
    >
      duplicate
    </Badge>
  );
}

/** A copy with the message's id whose signature did not verify, beside the service's verified delivery (lib/console/timeline/reconcile.ts). */
export function SuspiciousBadge() {
  return (
    <Badge
      tone="red"
      title="A copy with this message id whose signature did not verify, although the service's delivery verified: not from the service. Do not resend; check who else posts to this receiver and rotate its URL and signing secret."
    >
      suspicious arrival
    </Badge>
  );
}

export function EnabledBadge({ disabled, paused }: { disabled: boolean; paused?: boolean }) {
  return disabled ? (
    <Badge tone="gray" dot>
      disabled
    </Badge>
  ) : paused ? (
    <Badge tone="amber" dot>
      paused
    </Badge>
  ) : (
    <Badge tone="green" dot>
      enabled
    </Badge>
  );
}

export function EnvironmentBadge({ name, label }: { name: string; label?: string }) {
  return (
    <Badge tone={name === 'production' ? 'red' : 'amber'} title={`All API calls go to the ${name} environment`}>
      {label ?? name}
    </Badge>
  );
}
