import type { ReactNode } from 'react';

export function PageHeader({ title, description, actions, eyebrow }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; eyebrow?: ReactNode }) {
  return (
    <div className="mb-5 flex flex-wrap items-end justify-between gap-3 border-b border-slate-200 pb-4">
      <div className="min-w-0">
        {eyebrow ? <div className="mb-1 text-xs text-slate-500">{eyebrow}</div> : null}
        <h1 className="break-words text-xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {description ? <div className="mt-1 text-sm text-slate-600">{description}</div> : null}
      </div>
      {actions ? <div className="flex max-w-full shrink-0 flex-wrap items-start gap-2">{actions}</div> : null}
    </div>
  );
}
