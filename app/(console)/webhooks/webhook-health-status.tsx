'use client';

import { EnabledBadge } from '@/components/console/badge';
import { HealthBadge } from '@/components/console/health/health-badge';
import { useHealthHome } from '@/app/(console)/use-health-home';

/**
 * A webhook's health in the webhooks list: the health home's classification (one request for the
 * whole list, shared by every row and polled like the home), read after the page is up so the list
 * never waits for the stats. Until it comes, or for a webhook it does not cover, enabled or disabled.
 */
export function WebhookHealthStatus({ webhookId, disabled }: { webhookId: string; disabled: boolean | null }) {
  const query = useHealthHome('24h', null);
  const row = query.data?.rows.find((r) => r.webhook.id === webhookId);
  if (row) {
    return (
      <div className="min-w-0" data-testid="webhook-health-status" data-level={row.health.level}>
        <HealthBadge health={row.health} />
        {row.health.level !== 'healthy' && row.health.level !== 'disabled' ? (
          <div className="mt-0.5 max-w-56 text-xs text-slate-500">{row.health.reasons[0]}</div>
        ) : null}
      </div>
    );
  }
  if (disabled === null) return <span className="text-xs text-slate-500">unknown</span>;
  // Not green while the health is being read: "enabled" says nothing about how deliveries go.
  if (query.isPending) {
    return (
      <span className="text-xs text-slate-500" data-testid="webhook-health-status" data-level="pending">
        {disabled ? 'disabled' : 'enabled'} · health…
      </span>
    );
  }
  return (
    <div data-testid="webhook-health-status" data-level="none">
      <EnabledBadge disabled={disabled} />
    </div>
  );
}
