'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { Card } from '@/components/console/card';
import { Button, Field, Input, Select } from '@/components/console/form';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { Timestamp } from '@/components/console/timestamp';
import type { TErrorInfo } from '@/lib/console/error-info';
import type { TUserView } from '@/lib/console/staff/users';
import { addUserAction, changeUserAction, resetPasswordAction } from './actions';

/** A user as the page sends it (times as ISO strings). */
type TUserRow = Omit<TUserView, 'createdAt' | 'lastLoginAt'> & { createdAt: string; lastLoginAt: string | null };
type TResult = { ok: boolean; error?: TErrorInfo; data?: { email: string; password?: string } };

const signInLabel = (u: TUserRow) => (u.signIn === 'sso' ? 'Single sign-on' : 'Password');

/** The staff users with their controls, and the form to add one; a one-time password is shown here once. */
export function UsersTable({ users, me, roleClaim }: { users: TUserRow[]; me: string; roleClaim: string | null }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<TErrorInfo | null>(null);
  const [shown, setShown] = useState<{ email: string; password: string } | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('viewer');
  const [signIn, setSignIn] = useState('password');
  const run = (fn: () => Promise<TResult>) =>
    start(async () => {
      setError(null);
      setShown(null);
      const r = await fn();
      if (!r.ok && r.error) setError(r.error);
      if (r.ok && r.data?.password) setShown({ email: r.data.email, password: r.data.password });
      if (r.ok) router.refresh();
    });
  return (
    <div className="space-y-4">
      <Card title="Add a user">
        <form
          className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem_14rem_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            run(async () => {
              const r = await addUserAction({ email, role, signIn });
              if (r.ok) setEmail('');
              return r;
            });
          }}
        >
          <Field label="E-mail" htmlFor="new-user-email">
            <Input id="new-user-email" name="email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field>
          <Field label="Role" htmlFor="new-user-role">
            <Select id="new-user-role" name="role" value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="viewer">Viewer</option>
              <option value="operator">Operator</option>
              <option value="admin">Admin</option>
            </Select>
          </Field>
          <Field label="Signs in with" htmlFor="new-user-signin">
            <Select id="new-user-signin" name="signIn" value={signIn} onChange={(e) => setSignIn(e.target.value)}>
              <option value="password">One-time password</option>
              <option value="sso">Single sign-on only</option>
            </Select>
          </Field>
          <Button type="submit" variant="primary" disabled={pending}>
            Add user
          </Button>
        </form>
      </Card>
      {shown ? (
        <Callout tone="success" title={`The password of ${shown.email}, shown this once`}>
          <p className="mb-2 text-xs">
            Hand it over in a safe way; this console does not keep it and cannot show it again. They choose their own at their first sign-in.
          </p>
          <div data-testid="one-time-password">
            <CopyField value={shown.password} label="Password" />
          </div>
        </Callout>
      ) : null}
      {error ? <ErrorCallout error={error} /> : null}
      <Table label="Staff users" cards>
        <thead>
          <tr>
            <Th>E-mail</Th>
            <Th>Role</Th>
            <Th>Signs in with</Th>
            <Th>Last sign-in</Th>
            <Th className="text-right">Actions</Th>
          </tr>
        </thead>
        <TBody cards>
          {users.map((u) => (
            <tr key={u.id} data-testid="user-row" className={`${CARD_ROW} ${u.disabled ? 'bg-slate-50 text-slate-500 max-md:bg-slate-50' : ''}`}>
              <Td card className="min-w-[10rem] font-medium [overflow-wrap:anywhere] md:font-normal">
                {u.email}
                {u.id === me ? <span className="ml-1 text-xs text-slate-500">(you)</span> : null}
                {u.disabled ? <span className="ml-1 rounded bg-slate-200 px-1 text-xs text-slate-600">deactivated</span> : null}
                {u.mustChangePassword ? (
                  <span
                    className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-800"
                    data-testid="must-change"
                    title="Signs in next with the one-time password, then must choose their own"
                  >
                    one-time password
                  </span>
                ) : null}
              </Td>
              <Td card="Role">
                <div>
                  <Select
                    aria-label={`Role of ${u.email}`}
                    className="w-32"
                    value={u.role}
                    disabled={pending}
                    onChange={(e) => run(() => changeUserAction(u.id, { role: e.target.value }))}
                  >
                    <option value="viewer">Viewer</option>
                    <option value="operator">Operator</option>
                    <option value="admin">Admin</option>
                  </Select>
                  {u.roleFromClaim && roleClaim ? (
                    <p className="mt-1 max-w-[12rem] text-xs text-slate-500" data-testid="role-from-claim">
                      set by the <code className="font-mono">{roleClaim}</code> claim at each sign-in
                    </p>
                  ) : null}
                </div>
              </Td>
              <Td card="Signs in with">{signInLabel(u)}</Td>
              <Td card="Last sign-in">{u.lastLoginAt ? <Timestamp value={u.lastLoginAt} /> : <span className="text-slate-500">never</span>}</Td>
              <Td card className="text-right max-md:mt-1 max-md:border-t max-md:border-slate-100 max-md:pt-2">
                <div className="flex flex-wrap justify-end gap-1.5 max-md:justify-start">
                  {/* Single sign-on only: no password here to reset (the identity provider keeps it). */}
                  {u.signIn === 'password' ? (
                    <Button size="sm" disabled={pending} onClick={() => run(() => resetPasswordAction(u.id))} aria-label={`Reset the password of ${u.email}`}>
                      Reset the password
                    </Button>
                  ) : null}
                  <Button
                    size="sm"
                    variant={u.disabled ? 'secondary' : 'danger'}
                    disabled={pending}
                    onClick={() => run(() => changeUserAction(u.id, { disabled: !u.disabled }))}
                    aria-label={`${u.disabled ? 'Reactivate' : 'Deactivate'} ${u.email}`}
                  >
                    {u.disabled ? 'Reactivate' : 'Deactivate'}
                  </Button>
                </div>
              </Td>
            </tr>
          ))}
        </TBody>
      </Table>
    </div>
  );
}
