'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { EmptyState } from '@/components/console/empty-state';
import { Card } from '@/components/console/card';
import { Button, Field, Input, Select } from '@/components/console/form';
import { Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import type { TErrorInfo } from '@/lib/console/error-info';
import type { TTokenView } from '@/lib/console/staff/personal-tokens';

const STATE_CLASS = { live: 'bg-emerald-50 text-emerald-700', expired: 'bg-slate-100 text-slate-600', revoked: 'bg-rose-50 text-rose-700' } as const;

/** Sends a JSON request to the console's token routes; the problem's detail on failure. */
async function send<T>(method: 'POST' | 'DELETE', url: string, body?: unknown): Promise<{ ok: true; data: T } | { ok: false; error: TErrorInfo }> {
  try {
    const res = await fetch(url, {
      method,
      headers: { accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    if (res.ok) return { ok: true, data: (res.status === 204 ? null : await res.json()) as T };
    const problem = (await res.json().catch(() => ({}))) as { detail?: string };
    return { ok: false, error: { message: problem.detail ?? `HTTP ${res.status}`, status: res.status, requestId: res.headers.get('x-request-id') } };
  } catch {
    return { ok: false, error: { message: 'The console did not answer (offline or restarting).' } };
  }
}

/** The member's tokens, the form to make one, and the new token shown once with the command that uses it. */
export function TokensPanel({ tokens, consoleUrl }: { tokens: TTokenView[]; consoleUrl: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const [name, setName] = useState('');
  const [days, setDays] = useState('30');
  const run = (fn: () => Promise<void>) =>
    start(async () => {
      setError(null);
      await fn();
      router.refresh();
    });
  return (
    <div className="space-y-4">
      <Card title="Make a token">
        <form
          className="grid gap-3 sm:grid-cols-[1fr_10rem_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            run(async () => {
              setMade(null);
              const r = await send<{ token: string; name: string }>('POST', '/api/tokens', { name, expiresInDays: Number(days) });
              if (!r.ok) return setError(r.error);
              setMade({ name: r.data.name, token: r.data.token });
              setName('');
            });
          }}
        >
          <Field label="Name (what it is for)" htmlFor="token-name">
            <Input
              id="token-name"
              name="name"
              required
              maxLength={100}
              value={name}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. ada's laptop"
            />
          </Field>
          <Field label="Expires in" htmlFor="token-days">
            <Select id="token-days" name="expiresInDays" value={days} onChange={(e) => setDays(e.target.value)}>
              {[1, 7, 30, 90, 365].map((d) => (
                <option key={d} value={d}>
                  {d === 1 ? '1 day' : `${d} days`}
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" variant="primary" disabled={pending}>
            Make token
          </Button>
        </form>
      </Card>
      {made ? (
        <Callout tone="success" title={`The token "${made.name}", shown this once`}>
          <p className="mb-2 text-xs">Copy it now: the console keeps only its hash and cannot show it again.</p>
          <div data-testid="new-token" className="space-y-2">
            <CopyField value={made.token} label="Token" />
            {/* The token in the environment, not in argv, where every user of the machine sees it (ps). */}
            <CopyField
              value={`CONSOLE_TOKEN=${made.token} npm run listen -- --console ${consoleUrl} --receiver <slug> --forward http://localhost:4000/webhooks`}
              label="Command"
            />
          </div>
        </Callout>
      ) : null}
      {error ? <ErrorCallout error={error} /> : null}
      {tokens.length === 0 ? (
        <EmptyState title="No tokens yet">Make one above to run listen on your machine.</EmptyState>
      ) : (
        <Table label="Your tokens">
          <thead>
            <tr>
              <Th>Name</Th>
              <Th className="hidden sm:table-cell">State</Th>
              <Th className="hidden md:table-cell">Made</Th>
              <Th className="hidden sm:table-cell">Expires</Th>
              <Th className="hidden md:table-cell">Last used</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </thead>
          <TBody>
            {tokens.map((t) => (
              <tr key={t.id} data-testid="token-row" className={t.state === 'live' ? '' : 'text-slate-500'}>
                <Td className="min-w-32 break-words">
                  {t.name}
                  {/* Below sm the state and the expiry sit under the name instead of in columns of their own. */}
                  <span className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500 sm:hidden">
                    <span className={`rounded px-1.5 py-0.5 font-medium ${STATE_CLASS[t.state]}`}>{t.state}</span>
                    <span>
                      {t.revokedAt ? 'revoked' : t.state === 'expired' ? 'expired' : 'expires'} <Timestamp value={t.revokedAt ?? t.expiresAt} />
                    </span>
                  </span>
                </Td>
                <Td className="hidden sm:table-cell">
                  <span className={`rounded px-1.5 py-0.5 text-xs font-medium ${STATE_CLASS[t.state]}`}>{t.state}</span>
                </Td>
                <Td className="hidden md:table-cell">
                  <Timestamp value={t.createdAt} />
                </Td>
                <Td className="hidden sm:table-cell">
                  <Timestamp value={t.expiresAt} />
                </Td>
                <Td className="hidden md:table-cell">{t.lastUsedAt ? <Timestamp value={t.lastUsedAt} /> : <span className="text-slate-500">never</span>}</Td>
                <Td className="text-right">
                  {t.state === 'live' ? (
                    <Button
                      size="sm"
                      variant="danger"
                      disabled={pending}
                      aria-label={`Revoke ${t.name}`}
                      onClick={() =>
                        run(async () => {
                          const r = await send('DELETE', `/api/tokens/${t.id}`);
                          if (!r.ok) setError(r.error);
                        })
                      }
                    >
                      Revoke
                    </Button>
                  ) : null}
                </Td>
              </tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
