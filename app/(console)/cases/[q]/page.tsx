import type { Metadata } from 'next';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { PageHeader } from '@/components/console/page-header';
import { loadCaseView } from '@/lib/console/investigation/case-page-view';
import { CaseView } from './case-view';
import { PayloadResults } from './payload-results';
import { z } from 'zod';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';
import { CaseShares } from './case-shares';

export const metadata: Metadata = { title: 'Case' };

// A payload search's window (lib/console/search/search-window.ts reads it, and says what is wrong with it).
const ZCaseWindow = z.object({ since: z.string().nullable().default(null).catch(null), until: z.string().nullable().default(null).catch(null) });

export default async function CasePage({ params, searchParams }: TPageProps<{ q: string }>) {
  const { q: raw } = await params;
  const q = decoded(raw).slice(0, 254);
  const { view } = await loadCaseView(q, pageQuery(await searchParams, ZCaseWindow));
  switch (view.kind) {
    case 'bad-term':
      return (
        <div className="space-y-4">
          <PageHeader eyebrow="Case" title="This cannot be searched" />
          <Callout tone="error" title={`The search term ${view.problem}.`} />
        </div>
      );
    case 'bad-search':
      return (
        <div className="space-y-4">
          <PageHeader eyebrow="Search" title="This cannot be searched" />
          <Callout tone="error" title={`${view.problem}.`}>
            Search inside payloads with <code className="font-mono">path.to.field=value</code> (<code className="font-mono">data.amount=15000</code>) or{' '}
            <code className="font-mono">&quot;quoted text&quot;</code>, over at most 31 days.
          </Callout>
        </div>
      );
    case 'search':
      return <PayloadResults data={view.results} />;
    case 'search-error':
      return <ErrorCallout error={view.error} title="The search could not be completed" />;
    case 'case-error':
      return (
        <div className="space-y-4">
          <PageHeader eyebrow="Case" title={q} />
          <ErrorCallout error={view.error} title="The search could not be completed" />
        </div>
      );
    case 'case':
      return (
        <div className="space-y-5">
          <CaseView initial={view.found} />
          {/* A search that found nothing has nothing to share (a link made earlier can still be revoked here). */}
          {view.found.messages.length > 0 || view.found.grants.length > 0 || view.shares.length ? (
            <CaseShares query={view.found.query} live={view.shares} />
          ) : null}
        </div>
      );
  }
}

/** Next hands params percent-encoded or not depending on the characters; decode once, safely. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
