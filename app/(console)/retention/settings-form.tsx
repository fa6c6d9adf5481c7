'use client';

import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';
import { Badge } from '@/components/console/badge';
import { buttonClass } from '@/components/console/button-class';
import type { TSetting } from '@/lib/console/retention/retention-settings';

// Retention settings in effect and where each comes from, editable by an admin (read-only below):
// the console's three (PATCH /api/retention: a duration, or "use the environment's" to drop the
// admin's value), and the service's two for the connected account (PATCH /api/retention/service:
// a duration, or "use the service's default").

const LABELS: Record<string, string> = {
  RECEIPT_BODY_RETENTION: 'Receipt bodies and headers',
  RECEIPT_RETENTION: 'Receipts (the rows)',
  RETENTION_HOLD_MAX: 'Hold of unresolved receipts, at most',
  MESSAGE_PAYLOAD_RETENTION: 'Message payloads and attempt answers',
  MESSAGE_RETENTION: 'Messages (the rows)',
};
const SOURCE_TONE = { admin: 'blue', account: 'blue', env: 'gray', default: 'gray' } as const;
const SOURCE_LABEL = { admin: 'set by an admin', account: 'set for this account', env: 'from the environment', default: 'default' } as const;

type TProps = {
  settings: TSetting[];
  /** Where a change goes (PATCH). */
  endpoint: string;
  /** False below admin: the values are shown, not inputs. */
  canEdit: boolean;
  /** The button that drops a value back to its default. */
  resetLabel: string;
  testId: string;
  children?: ReactNode;
};

export function RetentionSettingsForm({ settings, endpoint, canEdit, resetLabel, testId, children }: TProps) {
  const router = useRouter();
  const [values, setValues] = useState<Record<string, string>>(() => Object.fromEntries(settings.map((s) => [s.key, s.value])));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(patch: Record<string, string | null>) {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      const res = await fetch(endpoint, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(patch),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.detail ?? `The console answered ${res.status}.`);
      const now = body.settings as TSetting[];
      setValues(Object.fromEntries(now.map((s) => [s.key, s.value])));
      setSaved('Saved. The purge uses the new values from its next pass.');
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const editable = (s: TSetting) => canEdit && s.editable;
  const changed = Object.fromEntries(settings.filter((s) => editable(s) && values[s.key].trim() !== s.value).map((s) => [s.key, values[s.key].trim()]));
  return (
    <form
      className="space-y-3 text-sm"
      data-testid={testId}
      onSubmit={(e) => {
        e.preventDefault();
        void send(changed);
      }}
    >
      <ul className="divide-y divide-slate-100">
        {settings.map((s) => (
          <li key={s.key} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2" data-testid={`setting-${s.key}`} data-source={s.source}>
            <label htmlFor={`retention-${s.key}`} className="min-w-0 basis-full sm:basis-72">
              <span className="block text-slate-800">{LABELS[s.key] ?? s.key}</span>
              <code className="text-xs text-slate-500">{s.key}</code>
            </label>
            {editable(s) ? (
              <input
                id={`retention-${s.key}`}
                className="w-24 rounded-md border border-slate-300 bg-surface px-2 py-1 font-mono text-sm"
                value={values[s.key]}
                onChange={(e) => setValues({ ...values, [s.key]: e.target.value })}
                aria-describedby={`${testId}-grammar`}
              />
            ) : (
              <span className="w-24 px-2 py-1 font-mono" id={`retention-${s.key}`}>
                {s.value}
              </span>
            )}
            <Badge tone={SOURCE_TONE[s.source]} title={s.defaultValue && s.source !== 'default' ? `Default: ${s.defaultValue}` : undefined}>
              {SOURCE_LABEL[s.source]}
            </Badge>
            {s.source === 'account' && s.defaultValue ? <span className="text-xs text-slate-500">service default {s.defaultValue}</span> : null}
            {editable(s) && (s.source === 'admin' || s.source === 'account') ? (
              <button type="button" className="text-xs text-indigo-700 hover:underline" disabled={busy} onClick={() => void send({ [s.key]: null })}>
                {resetLabel}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {children}
      <div className="flex flex-wrap items-center gap-3">
        {canEdit ? (
          <button type="submit" className={buttonClass('primary')} disabled={busy || Object.keys(changed).length === 0}>
            Save
          </button>
        ) : null}
        {error ? (
          <p className="text-red-700" role="alert">
            {error}
          </p>
        ) : null}
        {saved ? <p role="status">{saved}</p> : null}
      </div>
    </form>
  );
}
