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
import { CaseShares } from './case-shares';
import { liveShares } from '@/lib/console/share/shares';

export const metadata: Metadata = { title: 'Case' };

export default async function CasePage({ params }: { params: Promise<{ q: string }> }) {
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

/** Next hands params percent-encoded or not depending on the characters; decode once, safely. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
