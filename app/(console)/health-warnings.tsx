'use client';

import Link from 'next/link';
import { Callout } from '@/components/console/callout';
import { describeGap } from '@/lib/console/recover/gap-words';
import type { THealthHome } from '@/lib/console/health/health-types';

// The health home's top lines about disabling: the webhooks the service is about to disable (in
// plain words, from its disablesAt) and the gaps recent outages left, each linking to its page,
// where "Recover all" sends what it missed.

const href = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

export function HealthWarnings({ data }: { data: THealthHome }) {
  const soon = data.rows.filter((r) => r.warning);
  const gaps = data.gaps ?? [];
  if (soon.length === 0 && gaps.length === 0) return null;
  return (
    <div className="space-y-2">
      {soon.length > 0 ? (
        <Callout tone="error" title={soon.length === 1 ? 'A webhook is about to be disabled' : `${soon.length} webhooks are about to be disabled`}>
          <ul className="space-y-1" data-testid="about-to-disable">
            {soon.map((r) => (
              <li key={r.webhook.id} data-webhook-id={r.webhook.id}>
                <Link href={href(r.webhook.id)} className="font-medium underline">
                  {r.webhook.description || r.webhook.url}
                </Link>
                : {r.warning!.sentence}.
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {gaps.length > 0 ? (
        <Callout tone="warning" title="After an outage">
          <ul className="space-y-1" data-testid="outage-gaps">
            {gaps.map((g) => (
              <li key={g.webhookId} data-webhook-id={g.webhookId}>
                <Link href={href(g.webhookId)} className="font-medium underline">
                  {g.name}
                </Link>
                : {describeGap(g, g.noun)}
                {g.enabledAt ? ' — recover them on its page.' : '.'}
              </li>
            ))}
          </ul>
        </Callout>
      ) : null}
    </div>
  );
}
