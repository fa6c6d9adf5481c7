import type { Metadata } from 'next';
import Link from 'next/link';
import { Can } from '@/components/console/role';
import { buttonClass } from '@/components/console/button-class';
import { ErrorCallout } from '@/components/console/callout';
import { PageHeader } from '@/components/console/page-header';
import { HealthThresholds } from '@/components/console/health/health-thresholds';
import { BackupStatus } from '@/components/console/backup-status';
import { loadBackupStatus } from '@/lib/console/health/backup-status';
import { healthWindowOf } from '@/lib/console/health/health-types';
import { loadHealthHome } from '@/lib/console/health/load-health-home';
import { loadOrError } from '@/app/(console)/_lib/errors';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { HealthHome } from './health-home';
import type { TPageProps } from '@/lib/http/page-props';

export const metadata: Metadata = { title: 'Health' };

// The console's first page: every webhook of the account with its health, troubled ones first.
export default async function HealthPage({ searchParams }: TPageProps) {
  const { staff, api } = await staffApi();
  const window = healthWindowOf((await searchParams).window);
  const loaded = await loadOrError(() => loadHealthHome(staff.environment, api, window));
  return (
    <div className="space-y-4">
      <PageHeader
        title="Webhook health"
        description={<>Every webhook of the {staff.environment} account: how its deliveries have gone, troubled ones first. Open one for its charts and timeline.</>}
        actions={
          <Can min="operator">
            <Link href="/webhooks/new" className={buttonClass('secondary')}>
              New subscription
            </Link>
          </Can>
        }
      />
      <HealthThresholds />
      <BackupStatus {...await loadBackupStatus()} />
      {loaded.error ? <ErrorCallout error={loaded.error} title="The webhooks could not be loaded" /> : <HealthHome initial={loaded.data} />}
    </div>
  );
}
