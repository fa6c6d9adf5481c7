'use client';

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TWebhookStats } from '@/lib/console/health/health-types';
import { bucketLabel, formatMs } from './format-health';

// The webhook page's two charts over the stats' buckets: outcomes, and response-time percentiles
// against the delivery timeout (log scale, so 20 ms and 15 s both read).

/** The contract's delivery timeout: a 2xx must come within 15 s. */
export const DELIVERY_TIMEOUT_MS = 15_000;
const LOG_TICKS = [1, 10, 100, 1000, 10_000];

const axisTick = { fontSize: 11, fill: '#64748b' };

export function OutcomeChart({ stats }: { stats: TWebhookStats }) {
  const data = stats.buckets.map((b) => ({ label: bucketLabel(b.start, stats.bucketSeconds), successes: b.successes, failures: b.failures }));
  return (
    <figure className="min-w-0 overflow-hidden" data-testid="chart-outcomes">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">Attempts per {stats.bucketSeconds >= 3600 ? `${stats.bucketSeconds / 3600} h` : `${stats.bucketSeconds / 60} min`} (UTC)</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={axisTick} interval="preserveStartEnd" minTickGap={24} />
          <YAxis allowDecimals={false} tick={axisTick} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="successes" name="success" stackId="a" fill="#10b981" isAnimationActive={false} />
          <Bar dataKey="failures" name="failure" stackId="a" fill="#e11d48" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

const clamp = (v: number | null) => (v === null ? null : Math.max(1, v));

export function LatencyChart({ stats }: { stats: TWebhookStats }) {
  const data = stats.buckets.map((b) => ({ label: bucketLabel(b.start, stats.bucketSeconds), p50: clamp(b.p50), p95: clamp(b.p95), p99: clamp(b.p99) }));
  return (
    <figure className="min-w-0 overflow-hidden" data-testid="chart-latency">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">Response time p50 / p95 / p99 against the 15 s timeout (log scale)</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -4 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={axisTick} interval="preserveStartEnd" minTickGap={24} />
          <YAxis scale="log" domain={[1, 30_000]} ticks={LOG_TICKS} allowDataOverflow tick={axisTick} tickFormatter={(v: number) => (v < 1000 ? `${v} ms` : `${v / 1000} s`)} width={60} />
          <Tooltip formatter={(v) => formatMs(typeof v === 'number' ? v : null)} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <ReferenceLine y={DELIVERY_TIMEOUT_MS} stroke="#e11d48" strokeDasharray="6 3" label={{ value: 'timeout 15 s', position: 'insideTopRight', fontSize: 11, fill: '#be123c' }} />
          <Line type="monotone" dataKey="p50" dot={{ r: 2.5 }} stroke="#0ea5e9" connectNulls isAnimationActive={false} />
          <Line type="monotone" dataKey="p95" dot={{ r: 2.5 }} stroke="#6366f1" connectNulls isAnimationActive={false} />
          <Line type="monotone" dataKey="p99" dot={{ r: 2.5 }} stroke="#a855f7" connectNulls isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
