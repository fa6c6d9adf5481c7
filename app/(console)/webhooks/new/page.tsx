import type { Metadata } from 'next';
import Link from 'next/link';
import { listReceivers } from '@/lib/console/receivers';
import { EVENT_TYPES } from '@/lib/constants';
import { PageHeader } from '@/components/console/page-header';
import { staffView } from '@/lib/console/staff/staff-view';
import { CreateWebhookForm } from './create-webhook-form';

export const metadata: Metadata = { title: 'New subscription' };

// Operators and admins: the receivers a new subscription may point at, by name (never their secrets).
const loadReceiverChoices = staffView(async () => (await listReceivers()).map((r) => ({ id: r.id, name: r.name, slug: r.slug })), 'operator');

export default async function NewWebhookPage() {
  const { staff, view: receivers } = await loadReceiverChoices();
  return (
    <div className="max-w-3xl">
      <PageHeader
        eyebrow={
          <Link href="/webhooks" className="hover:underline">
            Webhooks
          </Link>
        }
        title="New subscription"
        description={<>Creates a webhook in the {staff.environment} API and tracks it here.</>}
      />
      <CreateWebhookForm eventTypes={[...EVENT_TYPES]} receivers={receivers} />
    </div>
  );
}
