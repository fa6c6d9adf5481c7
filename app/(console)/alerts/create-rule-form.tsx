'use client';

import { Can } from '@/components/console/role';
import { useActionState, useState } from 'react';
import { Callout, ErrorCallout } from '@/components/console/callout';
import { CopyField } from '@/components/console/copy-button';
import { Field, Input, Select, SubmitButton } from '@/components/console/form';
import type { TFormState } from '@/app/(console)/_lib/errors';
import { ALERT_RULE_KINDS, ALERT_WINDOWS, CONSOLE_KINDS, DEFAULT_MIN_ATTEMPTS, KIND_LABELS, type TAlertRuleKind } from '@/lib/console/alerts/rule-kinds';
import { createAlertRuleAction } from './actions';

const THRESHOLD: Record<TAlertRuleKind, { label: string; hint: string; placeholder: string } | null> = {
  failure_streak: { label: 'Failed attempts in a row', hint: 'Fires when the newest N attempts all failed.', placeholder: '5' },
  success_rate: {
    label: 'Success rate below (%)',
    hint: `Over the window; needs at least the minimum of attempts (${DEFAULT_MIN_ATTEMPTS} by default).`,
    placeholder: '90',
  },
  receiver_failures: {
    label: 'Failed arrivals',
    hint: 'Over the window, at this console’s receiver of the webhook: arrivals whose signature did not verify or that it answered with an error (a receiver answering 200 to a bad signature is a success for the service).',
    placeholder: '1',
  },
  webhook_disabled: null,
  about_to_disable: {
    label: 'Share of the time before disabling (%)',
    hint: 'Fires while an enabled webhook has been failing (no success) for this share of the time after which the service disables it (its disablesAt): 50 warns halfway.',
    placeholder: '50',
  },
  webhook_paused: {
    label: 'Hours',
    hint: 'Fires when a webhook has been paused this long (its messages queue and none is sent; a pause never disables it); resolves when it is resumed. Decimals allowed (0.5 = 30 min).',
    placeholder: '4',
  },
  backup_failed: {
    label: 'Hours',
    hint: 'Fires when a scheduled backup of the embedded store (BACKUP_DIR) fails, or the newest is older than this many hours (or there is none); resolves at the next good one. Never on PostgreSQL: pg_dump backs it up.',
    placeholder: '26',
  },
  grant_undelivered: {
    label: 'Minutes',
    hint: 'A grant whose message no webhook got (2xx) this long after it was made. Decimals allowed (0.5 = 30 s).',
    placeholder: '15',
  },
};

function CreateRuleFormForRole({
  webhooks,
  targetRule,
  repeatEvery,
  smtp,
}: {
  webhooks: { id: string; label: string }[];
  targetRule: string;
  repeatEvery: string;
  smtp: boolean;
}) {
  const [state, action] = useActionState(createAlertRuleAction, {} as TFormState & { secret?: string });
  const v = (state.values ?? {}) as Record<string, string>;
  const fe = state.fieldErrors ?? {};
  const [kind, setKind] = useState<TAlertRuleKind>((v.kind as TAlertRuleKind) || 'failure_streak');
  const threshold = THRESHOLD[kind];
  return (
    <div className="space-y-3">
      {state.ok ? (
        <Callout tone="success" title="Rule created">
          <p className={state.secret ? 'mb-2' : undefined} data-testid="rule-created">
            {state.notice}
          </p>
          {state.secret ? <CopyField value={state.secret} /> : null}
        </Callout>
      ) : null}
      <form action={action} key={state.nonce} className="space-y-3" noValidate aria-label="Create an alert rule">
        {state.error ? <ErrorCallout error={state.error} /> : null}
        <Field label="Name" htmlFor="name" error={fe.name}>
          <Input id="name" name="name" defaultValue={v.name ?? ''} placeholder="e.g. Acme endpoint down" invalid={!!fe.name} maxLength={100} />
        </Field>
        <Field label="When" htmlFor="kind" error={fe.kind}>
          <Select id="kind" name="kind" value={kind} onChange={(e) => setKind(e.target.value as TAlertRuleKind)}>
            {ALERT_RULE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </Select>
        </Field>
        {threshold ? (
          <Field label={threshold.label} htmlFor="threshold" error={fe.threshold} hint={threshold.hint}>
            <Input
              id="threshold"
              name="threshold"
              inputMode="decimal"
              defaultValue={v.threshold ?? ''}
              placeholder={threshold.placeholder}
              invalid={!!fe.threshold}
            />
          </Field>
        ) : null}
        {kind === 'success_rate' || kind === 'receiver_failures' ? (
          <div className="grid grid-cols-2 gap-2">
            <Field label="Window" htmlFor="window" error={fe.window}>
              <Select id="window" name="window" defaultValue={v.window || '24h'}>
                {ALERT_WINDOWS.map((w) => (
                  <option key={w} value={w}>
                    {w}
                  </option>
                ))}
              </Select>
            </Field>
            {kind === 'success_rate' ? (
              <Field label="Min. attempts" htmlFor="minAttempts" error={fe.minAttempts}>
                <Input
                  id="minAttempts"
                  name="minAttempts"
                  inputMode="numeric"
                  defaultValue={v.minAttempts ?? String(DEFAULT_MIN_ATTEMPTS)}
                  invalid={!!fe.minAttempts}
                />
              </Field>
            ) : null}
          </div>
        ) : null}
        {CONSOLE_KINDS.includes(kind) ? null : (
          <Field label="Webhook" htmlFor="webhookId" error={fe.webhookId} hint="One webhook, or every webhook of the account.">
            <Select id="webhookId" name="webhookId" defaultValue={v.webhookId ?? ''}>
              <option value="">All webhooks</option>
              {webhooks.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.label}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Field
          label="Send to"
          htmlFor="targetUrl"
          error={fe.targetUrl}
          hint={`A URL (a POST when an alert fires, again every ${repeatEvery} until someone acknowledges it, and when it clears), or mailto:ops@example.org for e-mail${smtp ? '' : ' (needs SMTP_URL, not set here)'}. ${targetRule}`}
        >
          <Input
            id="targetUrl"
            name="targetUrl"
            defaultValue={v.targetUrl ?? ''}
            placeholder="https://hooks.example.org/alerts or mailto:…"
            invalid={!!fe.targetUrl}
            className="font-mono"
          />
        </Field>
        <Field
          label="Format (for a URL)"
          htmlFor="targetFormat"
          error={fe.targetFormat}
          hint="Signed Standard Webhooks JSON, or a Slack incoming webhook’s message."
        >
          <Select id="targetFormat" name="targetFormat" defaultValue={v.targetFormat || 'standard'}>
            <option value="standard">Signed POST (Standard Webhooks)</option>
            <option value="slack">Slack incoming webhook</option>
          </Select>
        </Field>
        <div>
          <SubmitButton pendingLabel="Creating…">Create rule</SubmitButton>
        </div>
      </form>
    </div>
  );
}

/** Shown only to admins (the server refuses the others anyway). */
export function CreateRuleForm(props: Parameters<typeof CreateRuleFormForRole>[0]) {
  return (
    <Can min="admin">
      <CreateRuleFormForRole {...props} />
    </Can>
  );
}
