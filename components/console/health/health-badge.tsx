import type { THealth, THealthLevel } from '@/lib/console/health/health-types';
import { Badge, type TTone } from '@/components/console/badge';

const TONES: Record<THealthLevel, TTone> = {
  healthy: 'green',
  recovering: 'blue',
  degraded: 'amber',
  failing: 'red',
  disabled: 'gray',
  paused: 'amber',
  unknown: 'violet',
};

/** The webhook's health level; the reasons are its tooltip. */
export function HealthBadge({ health }: { health: THealth }) {
  return (
    <span data-testid="health-badge" data-level={health.level}>
      <Badge tone={TONES[health.level]} title={health.reasons.join('; ')} dot>
        {health.level}
      </Badge>
    </span>
  );
}
