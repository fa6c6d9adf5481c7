import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { listTokens } from '@/lib/console/staff/personal-tokens';
import { env } from '@/lib/env';
import { staffView } from '@/lib/console/staff/staff-view';
import { TokensPanel } from './tokens-panel';

export const metadata: Metadata = { title: 'Personal access tokens' };

// The signed-in member's own personal access tokens: make one (shown once), revoke one. Operators and admins.
const loadTokens = staffView(async ({ staff }) => listTokens(staff.userId), 'operator');

export default async function TokensPage() {
  const { view: tokens } = await loadTokens();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Personal access tokens"
        description={
          <>
            A token lets <code className="rounded bg-slate-100 px-1 text-xs">npm run listen</code> on your machine follow a receiver&apos;s receipts and forward
            them to a local URL. It reads receipts and nothing else, stops working when it expires or you revoke it, and is only ever shown once.
          </>
        }
      />
      <TokensPanel tokens={tokens} consoleUrl={env.CONSOLE_PUBLIC_URL} />
    </div>
  );
}
