import type { ReactNode } from 'react';

// Inline notices; an error callout shows a TErrorInfo (app/(console)/_lib/errors.ts).
import { errorCalloutParts, type TErrorInfo } from '@/lib/console/error-info';

const TONES = {
  info: 'border-sky-200 bg-sky-50 text-sky-900',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
  error: 'border-rose-200 bg-rose-50 text-rose-900',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
} as const;

export function Callout({ tone = 'info', title, children }: { tone?: keyof typeof TONES; title?: ReactNode; children?: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded-md border px-3 py-2 text-sm ${TONES[tone]}`}>
      {title ? <p className="font-medium">{title}</p> : null}
      {children ? <div className={title ? 'mt-0.5' : ''}>{children}</div> : null}
    </div>
  );
}

export function ErrorCallout({ error, title }: { error: TErrorInfo; title?: string }) {
  const parts = errorCalloutParts(error);
  return (
    <Callout tone="error" title={title ?? parts.title}>
      <p>{parts.message}</p>
      {parts.details.length ? (
        <ul className="mt-1 list-inside list-disc">
          {parts.details.map((e) => (
            <li key={e.path + e.message}>
              <span className="font-mono">{e.path}</span>: {e.message}
            </li>
          ))}
        </ul>
      ) : null}
      {error.requestId ? (
        <p className="mt-1 text-xs opacity-80">
          Request id <span className="select-all font-mono">{error.requestId}</span>
        </p>
      ) : null}
    </Callout>
  );
}
