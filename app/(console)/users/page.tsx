import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { listUsers } from '@/lib/console/staff/users';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { UsersTable } from './users-table';

export const metadata: Metadata = { title: 'Staff users' };

export default async function UsersPage() {
  const { staff } = await staffApi('admin');
  const users = await listUsers();
  return (
    <div className="space-y-6">
      <PageHeader
        title="Staff users"
        description="Who can sign in to this console and what each may do: viewers look (no secrets, donor details masked), operators also resend, recover, change receivers and share cases, admins also manage users, alert rules and secrets."
      />
      <UsersTable
        me={staff.userId}
        users={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString(), lastLoginAt: u.lastLoginAt?.toISOString() ?? null }))}
      />
    </div>
  );
}
