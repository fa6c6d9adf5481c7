import type { TWebhookStats } from '@/lib/console/health/health-types';
import { SPARK_H as H, SPARK_W as W, sparkGeometry } from './spark-geometry';

// The success rate per bucket as a small line in plain SVG (no chart library on the health home):
// gaps where nothing was attempted, a dot where a bucket stands alone. Rendered on the server too.

export function SuccessSparkline({ stats }: { stats: TWebhookStats }) {
  const rates = stats.buckets.map((b) => (b.attempts ? Math.round((b.successes / b.attempts) * 1000) / 10 : null));
  const label = `Success rate per ${stats.bucketSeconds >= 3600 ? `${stats.bucketSeconds / 3600} h` : `${stats.bucketSeconds / 60} min`} over ${stats.window}`;
  if (stats.attempts === 0) return <span className="text-xs text-slate-500">no attempts</span>;
  const { paths, dots } = sparkGeometry(rates);
  const color = stats.failures ? '#e11d48' : '#059669';
  return (
    <div role="img" aria-label={label} title={label} data-testid="sparkline" className="min-w-0">
      {/* Narrower where the room is (a card at 320 px), never taller. */}
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" className="h-auto max-w-full">
        {paths.map((d, i) => (
          <path key={i} d={d} fill="none" stroke={color} strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
        ))}
        {dots.map(([cx, cy], i) => (
          <circle key={i} cx={cx} cy={cy} r={2} fill={color} />
        ))}
      </svg>
    </div>
  );
}
