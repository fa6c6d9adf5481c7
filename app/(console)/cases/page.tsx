import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { EmptyState } from '@/components/console/empty-state';
import { PageHeader } from '@/components/console/page-header';
import { SearchBox } from '@/components/console/search-box';
import { staffView } from '@/lib/console/staff/staff-view';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { z } from 'zod';

export const metadata: Metadata = { title: 'Search' };

const ZCasesSearch = z.object({
  q: z.string().trim().optional().catch(undefined),
  // A payload search's window (lib/console/search/search-window.ts), passed on to the case page.
  since: z.string().trim().max(40).optional().catch(undefined),
  until: z.string().trim().max(40).optional().catch(undefined),
});

// Nothing to load: the session and the role are this page's only rule.
const enterCases = staffView(async () => null);

// /cases?q=… (the header's search form) → /cases/{q}, a linkable case.
export default async function CasesPage({ searchParams }: TPageProps) {
  await enterCases();
  const { q, since, until } = pageQuery(await searchParams, ZCasesSearch);
  const window = new URLSearchParams({ ...(since ? { since } : {}), ...(until ? { until } : {}) }).toString();
  if (q) redirect(`/cases/${encodeURIComponent(q.slice(0, 254))}${window ? `?${window}` : ''}`);
  return (
    <div className="space-y-4">
      <PageHeader title="Search" description="What happened to a donation's webhook, on every webhook of the account, from both sides of the wire." />
      <div className="max-w-xl rounded-lg bg-slate-900 p-3">
        <SearchBox />
      </div>
      <EmptyState title="Paste what the integrator or donor gave you">
        A tracking id (<code className="font-mono">GC-7KQ2M9</code>), a grant id, a message id (<code className="font-mono">msg_…</code>), an event id (
        <code className="font-mono">evt_…</code>), a webhook id (<code className="font-mono">ep_…</code>), the donor&apos;s e-mail or full name (
        <code className="font-mono">Grace Hopper</code>); inside payloads, a value at a path (<code className="font-mono">data.amount=15000</code>,{' '}
        <code className="font-mono">data.fund.id=fidelity-charitable</code>) or quoted words (<code className="font-mono">&quot;grace hopper&quot;</code>), over
        the last 7 days.
      </EmptyState>
    </div>
  );
}
