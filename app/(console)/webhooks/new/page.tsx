import type { Metadata } from 'next';
import Link from 'next/link';
import { listReceivers } from '@/lib/console/receivers';
import { EVENT_TYPES } from '@/lib/constants';
import { PageHeader } from '@/components/console/page-header';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { CreateWebhookForm } from './create-webhook-form';

export const metadata: Metadata = { title: 'New subscription' };

export default async function NewWebhookPage() {
  const { staff } = await staffApi('operator');
  const receivers = await listReceivers();
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
      <CreateWebhookForm eventTypes={[...EVENT_TYPES]} receivers={receivers.map((r) => ({ id: r.id, name: r.name, slug: r.slug }))} />
    </div>
  );
}
