import type { Metadata } from 'next';
import { PageHeader } from '@/components/console/page-header';
import { listUsers } from '@/lib/console/staff/users';
import { oidcSettings } from '@/lib/console/staff/oidc-config';
import { staffView } from '@/lib/console/staff/staff-view';
import { UsersTable } from './users-table';

export const metadata: Metadata = { title: 'Staff users' };

// Admins only: every staff user, with their e-mail and role.
const loadUsers = staffView(async () => listUsers(), 'admin');

export default async function UsersPage() {
  const { staff, view: users } = await loadUsers();
  const sso = oidcSettings();
  // The claim that sets roles at each single sign-on, when the console maps one (OIDC_ROLE_CLAIM + OIDC_ROLE_MAP).
  const roleClaim = sso?.roleClaim && sso.roleMap.length ? { claim: sso.roleClaim, provider: sso.label } : null;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Staff users"
        description="Who can sign in to this console and what each may do: viewers look (no secrets, donor details masked), operators also resend, recover, change receivers and share cases, admins also manage users, alert rules and secrets."
      />
      {roleClaim ? (
        <p className="text-sm text-slate-600" data-testid="role-claim-note">
          Users who sign in with {roleClaim.provider} get their role from its <code className="font-mono text-xs">{roleClaim.claim}</code> claim at each sign-in
          when it maps to one; a role changed here for them lasts until their next sign-in.
        </p>
      ) : null}
      <UsersTable
        me={staff.userId}
        roleClaim={roleClaim?.claim ?? null}
        users={users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString(), lastLoginAt: u.lastLoginAt?.toISOString() ?? null }))}
      />
    </div>
  );
}
