'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { Button, Field, Input, Select } from '@/components/console/form';
import { Card } from '@/components/console/card';
import { Can } from '@/components/console/role';
import { Timestamp } from '@/components/console/timestamp';
import type { TErrorInfo } from '@/lib/console/error-info';
import type { TShareView } from '@/lib/console/share/shares';
import { createShareAction, revokeShareAction } from './share-actions';

const EXPIRIES = [
  [1, '1 hour'],
  [24, '1 day'],
  [72, '3 days'],
  [168, '7 days'],
] as const;

/** The case's live share links; operators make one (its URL shown this once) or revoke one. */
export function CaseShares({ query, live }: { query: string; live: TShareView[] }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [ticket, setTicket] = useState('');
  const [hours, setHours] = useState(72);
  const [made, setMade] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<TErrorInfo | null>(null);
  const run = (fn: () => Promise<{ ok: boolean; error?: TErrorInfo; data?: { url: string; expiresAt: string } }>) =>
    start(async () => {
      setError(null);
      const r = await fn();
      if (!r.ok && r.error) setError(r.error);
      if (r.ok) {
        setMade(r.data ?? null);
        router.refresh();
      }
    });
  return (
    <Card title="Share links">
      <div className="space-y-3" data-testid="case-shares">
        <Can min="operator">
          <form
            className="grid gap-2 sm:grid-cols-[1fr_9rem_auto] sm:items-end"
            onSubmit={(e) => {
              e.preventDefault();
              run(() => createShareAction({ query, ticket, expiresInHours: hours }));
            }}
          >
            <Field label="Ticket reference" htmlFor="share-ticket" hint="Read-only, no login; donor details masked, no secrets.">
              <Input id="share-ticket" value={ticket} maxLength={200} onChange={(e) => setTicket(e.target.value)} placeholder="e.g. SUP-1234" />
            </Field>
            <Field label="Expires after" htmlFor="share-hours">
              <Select id="share-hours" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
                {EXPIRIES.map(([h, label]) => (
                  <option key={h} value={h}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" variant="primary" disabled={pending}>
              Create share link
            </Button>
          </form>
        </Can>
        {made ? (
          <Callout tone="success" title="Share link made: copy it now, it is shown only this once">
            <div data-testid="share-url">
              <CopyField value={made.url} label="Copy link" />
            </div>
          </Callout>
        ) : null}
        {error ? <ErrorCallout error={error} /> : null}
        {live.length === 0 ? (
          <p className="text-xs text-slate-500">No live share links for this case.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {live.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-1.5" data-testid="share-row">
                <span>
                  {s.ticket || 'no ticket'}{' '}
                  <span className="text-xs text-slate-500">
                    by {s.createdBy}, until <Timestamp value={s.expiresAt} zone />
                  </span>
                </span>
                <Can min="operator">
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={pending}
                    onClick={() => run(() => revokeShareAction(s.id))}
                    aria-label={`Revoke the link for ${s.ticket || 'no ticket'}`}
                  >
                    Revoke
                  </Button>
                </Can>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
