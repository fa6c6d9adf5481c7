import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { PageHeader } from '@/components/console/page-header';
import { buildCase } from '@/lib/console/investigation/build-case';
import { searchTermProblem } from '@/lib/console/investigation/search-query';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { asSeenBy } from '@/lib/console/staff/viewer-redaction';
import { loadOrError } from '@/app/(console)/_lib/errors';
import { CaseView } from './case-view';
import { PayloadResults } from './payload-results';
import { parsePayloadQuery } from '@/lib/console/search/payload-query';
import { searchPayloads } from '@/lib/console/search/search-payloads';
import { searchWindowOf } from '@/lib/console/search/search-window';
import type { TPageProps } from '@/lib/http/page-props';
import { CaseShares } from './case-shares';
import { liveShares } from '@/lib/console/share/shares';

export const metadata: Metadata = { title: 'Case' };

export default async function CasePage({ params, searchParams }: { params: Promise<{ q: string }>; searchParams: TPageProps['searchParams'] }) {
  const { q: raw } = await params;
  const q = decoded(raw).slice(0, 254);
  const { staff, api } = await staffApi();
  const problem = searchTermProblem(q.trim());
  if (problem) {
    return (
      <div className="space-y-4">
        <PageHeader eyebrow="Case" title="This cannot be searched" />
        <Callout tone="error" title={`The search term ${problem}.`} />
      </div>
    );
  }
  const payload = parsePayloadQuery(q);
  if (payload) {
    const window = 'query' in payload ? searchWindowOf(...windowParams(await searchParams)) : null;
    const problem = 'problem' in payload ? payload.problem : window && 'path' in window ? window.message : null;
    if (problem || !window || 'path' in window || !('query' in payload)) {
      return (
        <div className="space-y-4">
          <PageHeader eyebrow="Search" title="This cannot be searched" />
          <Callout tone="error" title={`${problem}.`}>
            Search inside payloads with <code className="font-mono">path.to.field=value</code> (<code className="font-mono">data.amount=15000</code>) or{' '}
            <code className="font-mono">&quot;quoted text&quot;</code>, over at most 31 days.
          </Callout>
        </div>
      );
    }
    const results = await loadOrError(() => searchPayloads(staff.environment, api, q, payload.query, window));
    if (!results.data) return <ErrorCallout error={results.error} title="The search could not be completed" />;
    return <PayloadResults data={asSeenBy(staff.role, results.data)} />;
  }
  const found = await loadOrError(() => buildCase(staff.environment, api, q));
  if (found.data?.redirect) redirect(found.data.redirect);
  if (!found.data) {
    return (
      <div className="space-y-4">
        <PageHeader eyebrow="Case" title={q} />
        <ErrorCallout error={found.error} title="The search could not be completed" />
      </div>
    );
  }
  return (
    <div className="space-y-5">
      <CaseView initial={asSeenBy(staff.role, found.data)} />
      <CaseShares query={found.data.query} live={await liveShares(found.data.query)} />
    </div>
  );
}

function windowParams(sp: Awaited<TPageProps['searchParams']>): [string | null, string | null] {
  const one = (v: string | string[] | undefined) => (typeof v === 'string' ? v : null);
  return [one(sp?.since), one(sp?.until)];
}

/** Next hands params percent-encoded or not depending on the characters; decode once, safely. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
