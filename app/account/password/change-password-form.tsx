'use client';

import { useActionState } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { Field, Input, SubmitButton } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { changePasswordAction } from './actions';

/** Current password, new one twice; `oneTime`: the current one is the one-time password an admin gave. */
export function ChangePasswordForm({ next, oneTime, email, minLength }: { next: string; oneTime: boolean; email: string; minLength: number }) {
  const [state, action] = useActionState(changePasswordAction, {} as TFormState);
  const fe = state.fieldErrors ?? {};
  return (
    <form action={action} key={state.nonce} className="space-y-4" aria-label="Change password">
      <input type="hidden" name="next" value={next} />
      {/* Lets a password manager file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      {state.notice ? (
        <Callout tone="success">
          <span data-testid="password-changed">{state.notice}</span>
        </Callout>
      ) : null}
      {state.error ? <ErrorCallout error={state.error} /> : null}
      <Field label={oneTime ? 'One-time password' : 'Current password'} htmlFor="currentPassword" error={fe.currentPassword}>
        <Input id="currentPassword" name="currentPassword" type="password" autoComplete="current-password" required autoFocus invalid={!!fe.currentPassword} />
      </Field>
      <Field label="New password" htmlFor="newPassword" error={fe.newPassword} hint={`At least ${minLength} characters.`}>
        <Input
          id="newPassword"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
          maxLength={1024}
          invalid={!!fe.newPassword}
        />
      </Field>
      <Field label="New password, again" htmlFor="repeatPassword" error={fe.repeatPassword}>
        <Input id="repeatPassword" name="repeatPassword" type="password" autoComplete="new-password" required invalid={!!fe.repeatPassword} />
      </Field>
      <SubmitButton className="w-full" pendingLabel="Changing…">
        {oneTime ? 'Set my password and continue' : 'Change password'}
      </SubmitButton>
    </form>
  );
}
