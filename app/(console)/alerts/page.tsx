import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge } from '@/components/console/badge';
import { EmptyState } from '@/components/console/empty-state';
import { Card } from '@/components/console/card';
import { PageHeader } from '@/components/console/page-header';
import { CARD_ROW, Table, TBody, Td, Th } from '@/components/console/table';
import { loadAlertsView } from '@/lib/console/alerts/alerts-view';
import { describeRule } from '@/lib/console/alerts/rule-schemas';
import { alertTargetRule, formatInterval } from '@/lib/console/alerts/describe-settings';
import { env } from '@/lib/env';
import { AlertsTable } from './alerts-table';
import { CreateRuleForm } from './create-rule-form';
import { RuleActions } from './rule-actions';

export const metadata: Metadata = { title: 'Alerts' };
export const dynamic = 'force-dynamic';

export default async function AlertsPage() {
  const {
    view: { rules, alerts, webhookNames },
  } = await loadAlertsView();
  const names = new Map(webhookNames);
  const choices = [...names].map(([id, name]) => ({ id, label: `${name} (${id})` }));
  return (
    <div className="space-y-5">
      <PageHeader
        title="Alerts"
        description={`Rules checked by the worker every ${formatInterval(env.ALERT_EVAL_MS)} against the API. An alert fires when its condition starts and is sent to the rule’s target (a signed POST, a Slack message or an e-mail), again every ${formatInterval(env.ALERT_REPEAT)} until someone acknowledges or snoozes it, and clears (with one more notice) when the condition ends.`}
      />
      <AlertsTable alerts={alerts} timeZone={env.CONSOLE_TIME_ZONE} />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        {rules.length === 0 ? (
          <EmptyState title="No alert rules">Create one to be told when a webhook keeps failing, is disabled, or a grant does not reach anyone.</EmptyState>
        ) : (
          <Table label="Alert rules" cards>
            <thead>
              <tr>
                <Th>Rule</Th>
                <Th>Condition</Th>
                <Th>Sends to</Th>
                <Th className="text-right">Actions</Th>
              </tr>
            </thead>
            <TBody cards>
              {rules.map((r) => (
                <tr key={r.id} data-testid="alert-rule-row" className={CARD_ROW}>
                  <Td card>
                    <div className="flex items-center gap-2">
                      <span className="font-medium">{r.name}</span>
                      {r.enabled ? <Badge tone="green">on</Badge> : <Badge tone="gray">off</Badge>}
                    </div>
                  </Td>
                  <Td card="Condition" className="max-w-sm text-xs text-slate-700 max-md:max-w-none">
                    <div>
                      {describeRule(r, r.webhookId ? names.get(r.webhookId) : undefined)}
                      {r.webhookId ? (
                        <Link
                          href={`/webhooks/${encodeURIComponent(r.webhookId)}`}
                          className="mt-0.5 block break-all font-mono text-indigo-700 hover:underline"
                          data-testid="alert-rule-webhook"
                        >
                          {r.webhookId}
                        </Link>
                      ) : null}
                    </div>
                  </Td>
                  <Td card="Sends to" className="max-w-xs text-xs max-md:max-w-none">
                    <div className="min-w-0">
                      <span className="block truncate font-mono">{r.targetUrl}</span>
                      <span className="text-slate-500">
                        {r.targetFormat === 'email' ? 'e-mail' : r.targetFormat === 'slack' ? 'Slack message' : 'signed POST'}
                      </span>
                    </div>
                  </Td>
                  <Td card className="text-right max-md:text-left">
                    <RuleActions id={r.id} name={r.name} enabled={r.enabled} />
                  </Td>
                </tr>
              ))}
            </TBody>
          </Table>
        )}
        <Card title="New alert rule">
          <CreateRuleForm
            webhooks={choices}
            targetRule={alertTargetRule(env.DELIVERY_ALLOW_PRIVATE)}
            repeatEvery={formatInterval(env.ALERT_REPEAT)}
            smtp={!!env.SMTP_URL}
          />
        </Card>
      </div>
    </div>
  );
}
