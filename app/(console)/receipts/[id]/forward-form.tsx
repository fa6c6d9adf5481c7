'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button, Field, Input, Select } from '@/components/console/form';

// Forward this receipt: a URL, verbatim or re-signed (under a given secret or the receiver's own).
// POST /api/receipts/{id}/forward; the page reloads its forwards from the server afterwards.

type TProblem = { detail?: string; errors?: { path: string; message: string }[] };

export function ForwardForm({ receiptId, canResign }: { receiptId: number; canResign: boolean }) {
  const router = useRouter();
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<'verbatim' | 'resign'>('verbatim');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function send() {
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/receipts/${receiptId}/forward`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ url: url.trim(), mode, ...(mode === 'resign' && secret.trim() ? { secret: secret.trim() } : {}) }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as TProblem | null;
        throw new Error(body?.detail ?? `The console answered ${res.status}.`);
      }
      router.refresh();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="space-y-2"
      data-testid="forward-form"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Field label="Send to" htmlFor="forward-url" hint="Any http(s) URL; the reply is kept below.">
        <Input id="forward-url" type="url" required placeholder="https://dev.example.org/webhooks" value={url} onChange={(e) => setUrl(e.target.value)} />
      </Field>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        <Field
          label="How"
          htmlFor="forward-mode"
          hint={mode === 'verbatim' ? 'The stored headers and bytes, as they arrived.' : 'The same body and webhook-id, a new timestamp and signature.'}
        >
          <Select id="forward-mode" value={mode} onChange={(e) => setMode(e.target.value as 'verbatim' | 'resign')}>
            <option value="verbatim">Verbatim</option>
            <option value="resign">Re-signed now</option>
          </Select>
        </Field>
        {mode === 'resign' ? (
          <Field
            label="Secret (optional)"
            htmlFor="forward-secret"
            hint={canResign ? 'Empty: the receiver’s current secret.' : 'The receiver holds none: give one.'}
          >
            <Input id="forward-secret" autoComplete="off" spellCheck={false} placeholder="whsec_…" value={secret} onChange={(e) => setSecret(e.target.value)} />
          </Field>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" variant="primary" disabled={busy || !url.trim()}>
          {busy ? 'Forwarding…' : 'Forward'}
        </Button>
        {error ? (
          <p className="text-xs text-rose-700" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </form>
  );
}
