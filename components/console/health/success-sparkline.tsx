'use client';

import { Line, LineChart, YAxis } from 'recharts';
import type { TWebhookStats } from '@/lib/console/health/health-types';

type TPoint = { rate: number | null };
type TDotProps = { cx?: number; cy?: number; index?: number; stroke?: string };

/** The success rate per bucket as a small line: gaps where nothing was attempted, a dot where a bucket stands alone. */
export function SuccessSparkline({ stats }: { stats: TWebhookStats }) {
  const data: TPoint[] = stats.buckets.map((b) => ({ rate: b.attempts ? Math.round((b.successes / b.attempts) * 1000) / 10 : null }));
  const label = `Success rate per ${stats.bucketSeconds >= 3600 ? `${stats.bucketSeconds / 3600} h` : `${stats.bucketSeconds / 60} min`} over ${stats.window}`;
  if (stats.attempts === 0) return <span className="text-xs text-slate-400">no attempts</span>;
  const alone = (i: number) => data[i].rate !== null && (data[i - 1]?.rate ?? null) === null && (data[i + 1]?.rate ?? null) === null;
  const dot = ({ cx, cy, index, stroke }: TDotProps) =>
    index !== undefined && cx !== undefined && cy !== undefined && alone(index) ? <circle key={index} cx={cx} cy={cy} r={2} fill={stroke} /> : <g key={index} />;
  return (
    <div role="img" aria-label={label} title={label} data-testid="sparkline">
      <LineChart width={120} height={28} data={data} margin={{ top: 3, right: 3, bottom: 3, left: 3 }}>
        <YAxis hide domain={[0, 100]} />
        <Line type="monotone" dataKey="rate" stroke={stats.failures ? '#e11d48' : '#059669'} strokeWidth={1.5} dot={dot} isAnimationActive={false} connectNulls={false} />
      </LineChart>
    </div>
  );
}
