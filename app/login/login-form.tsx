'use client';

import { useActionState, useState } from 'react';
import { loginAction } from '@/lib/console/staff/auth-actions';
import { Field, Input, SubmitButton } from '@/components/console/form';

/** `secondary`: beside a single sign-on button, which is then the primary way in. */
export function LoginForm({ next, secondary = false }: { next: string; secondary?: boolean }) {
  const [state, action] = useActionState(loginAction, {});
  // Controlled, so a failed attempt keeps the e-mail (React resets uncontrolled fields after an action).
  const [email, setEmail] = useState('');
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="next" value={next} />
      {state?.error ? (
        <div role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
          {state.error}
        </div>
      ) : null}
      <Field label="E-mail" htmlFor="email">
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="username"
          required
          autoFocus={!secondary}
          placeholder="you@example.org"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Field label="Password" htmlFor="password">
        <Input id="password" name="password" type="password" autoComplete="current-password" required />
      </Field>
      <SubmitButton className="w-full" variant={secondary ? 'secondary' : 'primary'} pendingLabel="Signing in…">
        {secondary ? 'Sign in with password' : 'Sign in'}
      </SubmitButton>
    </form>
  );
}
