'use client';

import { useState } from 'react';
import { buttonClass } from '@/components/console/button-class';
import { plural } from '@/lib/console/format';

// Erase one donor: enter an e-mail or a grant id, see what would be erased (a dry run, by count),
// confirm. POST /api/erasures; the report of both halves is shown as the answer.

type TReport = {
  dryRun: boolean;
  service: { grants: { found: number; erased: number }; messages: { found: number; erased: number }; attempts: { erased: number }; erasedAt: string | null };
  console: { receipts: { found: number; erased: number }; shareLinks: { revoked: number } };
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function ErasureForm() {
  const [subject, setSubject] = useState('');
  const [report, setReport] = useState<TReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(dryRun: boolean) {
    setBusy(true);
    setError(null);
    const value = subject.trim();
    try {
      const res = await fetch('/api/erasures', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ ...(UUID.test(value) ? { grantId: value } : { email: value }), dryRun }),
      });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.detail ?? `The console answered ${res.status}.`);
      setReport(body as TReport);
    } catch (err) {
      setError((err as Error).message);
      setReport(null);
    } finally {
      setBusy(false);
    }
  }

  const counts = (r: TReport) =>
    `${plural(r.service.grants.erased, 'grant')}, ${plural(r.service.messages.erased, 'message')}, ` +
    `${plural(r.service.attempts.erased, 'attempt answer')}, ${plural(r.console.receipts.erased, 'receipt')}, ` +
    `${plural(r.console.shareLinks.revoked, 'live share link')}`;

  return (
    <div className="space-y-3 text-sm" data-testid="erasure-form">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send(true);
        }}
      >
        <label className="flex w-full min-w-0 flex-col text-xs text-slate-600 sm:w-auto">
          Donor e-mail or grant id
          <input
            className="mt-0.5 w-full rounded-md border border-slate-300 bg-surface px-2 py-1 text-sm sm:w-80"
            value={subject}
            onChange={(e) => {
              setSubject(e.target.value);
              setReport(null);
            }}
            required
          />
        </label>
        <button type="submit" className={buttonClass('secondary')} disabled={busy || !subject.trim()}>
          Show what would be erased
        </button>
      </form>
      {error ? (
        <p className="text-red-700" role="alert">
          {error}
        </p>
      ) : null}
      {report?.dryRun ? (
        <div className="space-y-2">
          <p>Would erase {counts(report)}.</p>
          <button type="button" className={buttonClass('danger')} disabled={busy} onClick={() => void send(false)}>
            Erase this donor
          </button>
        </div>
      ) : report ? (
        <p role="status">
          {report.service.erasedAt || report.console.receipts.erased ? `Erased ${counts(report)}.` : 'Nothing left to erase: this donor was erased before.'}
        </p>
      ) : null}
    </div>
  );
}
