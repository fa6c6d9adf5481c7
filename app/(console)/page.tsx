import type { Metadata } from 'next';
import Link from 'next/link';
import { Can } from '@/components/console/role';
import { buttonClass } from '@/components/console/button-class';
import { ErrorCallout } from '@/components/console/callout';
import { PageHeader } from '@/components/console/page-header';
import { HealthThresholds } from '@/components/console/health/health-thresholds';
import { BackupStatus } from '@/components/console/backup-status';
import { healthWindowOf } from '@/lib/console/health/health-types';
import { loadHealthView } from '@/lib/console/health/health-view';
import { HealthHome } from './health-home';
import { z } from 'zod';
import { pageQuery, type TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Health' };

const ZHealthSearch = z.object({ window: z.string().optional().catch(undefined) });

// The console's first page: every webhook of the account with its health, troubled ones first.
export default async function HealthPage({ searchParams }: TPageProps) {
  const {
    staff,
    view: { home, backup },
  } = await loadHealthView(healthWindowOf(pageQuery(await searchParams, ZHealthSearch).window));
  return (
    <div className="space-y-4">
      <PageHeader
        title="Webhook health"
        description={
          <>Every webhook of the {staff.environment} account: how its deliveries have gone, troubled ones first. Open one for its charts and timeline.</>
        }
        actions={
          <Can min="operator">
            <Link href="/webhooks/new" className={buttonClass('secondary')}>
              New subscription
            </Link>
          </Can>
        }
      />
      <HealthThresholds />
      <BackupStatus {...backup} />
      {home.error ? <ErrorCallout error={home.error} title="The webhooks could not be loaded" /> : <HealthHome initial={home.data} />}
    </div>
  );
}
