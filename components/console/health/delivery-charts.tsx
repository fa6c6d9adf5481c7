'use client';

import { useCallback, useMemo } from 'react';
import type uPlot from 'uplot';
import type { TWebhookStats } from '@/lib/console/health/health-types';
import { bucketLabel, formatMs } from './format-health';
import { LEGEND_ROOM, UplotChart, type TChartColors, type TUplot } from './uplot-chart';

// The webhook page's two charts over the stats' buckets: outcomes (stacked bars), and response-time
// percentiles against the delivery timeout (log scale, so 20 ms and 15 s both read). uPlot draws
// them on a canvas; the legend under each gives the values at the pointer, else the latest bucket's.

/** The contract's delivery timeout: a 2xx must come within 15 s. */
export const DELIVERY_TIMEOUT_MS = 15_000;
const LOG_TICKS = [1, 10, 100, 1000, 10_000];
const COUNT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000];
const HEIGHT = 220;
/** A chart's caption (the latency one takes two lines on a phone), canvas and legend, as tall as a drawn chart. */
export function ChartPlaceholder({ longCaption = false }: { longCaption?: boolean }) {
  return (
    <div className="min-w-0">
      <div className={`mb-1 w-40 rounded bg-slate-100 ${longCaption ? 'h-8 sm:h-4' : 'h-4'}`} />
      <div className={`animate-pulse rounded bg-slate-50 ${LEGEND_ROOM}`} style={{ height: `calc(${HEIGHT}px + var(--legend))` }} />
    </div>
  );
}
const axis = (c: TChartColors) => ({
  stroke: c.axis,
  font: '11px ui-sans-serif, system-ui, sans-serif',
  grid: { stroke: c.grid, width: 1, dash: [3, 3] },
  ticks: { show: false },
});

const per = (bucketSeconds: number) => (bucketSeconds >= 3600 ? `${bucketSeconds / 3600} h` : `${bucketSeconds / 60} min`);
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const utcLabel = (stats: TWebhookStats) => (s: number) => bucketLabel(new Date(s * 1000).toISOString(), stats.bucketSeconds);

/** The time axis and the legend's time, in UTC as the captions say. */
function timeAxis(stats: TWebhookStats, U: TUplot, c: TChartColors): Pick<uPlot.Options, 'tzDate'> & { x: uPlot.Axis; xSeries: uPlot.Series } {
  const label = utcLabel(stats);
  return {
    tzDate: (ts) => U.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    x: { ...axis(c), grid: { show: false }, values: (_u, splits) => splits.map(label), space: 56 },
    xSeries: { label: 'UTC', value: (_u, v) => (v == null ? '—' : label(v)) },
  };
}

export function OutcomeChart({ stats }: { stats: TWebhookStats }) {
  const data = useMemo<uPlot.AlignedData>(() => {
    const b = stats.buckets;
    // Failures stack on successes: the failure bar is drawn to the total, the success bar over its foot.
    const bar = (n: number) => (n > 0 ? n : null); // an empty bucket draws no bar (not a hairline)
    return [b.map((x) => seconds(x.start)), b.map((x) => bar(x.successes + x.failures)), b.map((x) => bar(x.successes))];
  }, [stats]);
  const options = useCallback(
    (U: TUplot, c: TChartColors): Omit<uPlot.Options, 'width' | 'height'> => {
      const t = timeAxis(stats, U, c);
      const bars = U.paths.bars!({ size: [0.7, 48], gap: 1 });
      const half = stats.bucketSeconds / 2;
      const count = (idx: number | null | undefined, k: 'failures' | 'successes') => (idx == null ? null : (stats.buckets[idx]?.[k] ?? null));
      return {
        tzDate: t.tzDate,
        scales: { x: { time: true, range: (_u, min, max) => [min - half, max + half] }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [t.x, { ...axis(c), incrs: COUNT_INCRS, size: 40 }],
        series: [
          t.xSeries,
          {
            label: 'failure',
            stroke: '#e11d48',
            fill: '#e11d48',
            paths: bars,
            points: { show: false },
            value: (u, _v, _si, idx) => String(count(idx ?? u.cursor.idx, 'failures') ?? '—'),
          },
          // An empty bucket draws no bar but counts 0 in the legend.
          {
            label: 'success',
            stroke: '#10b981',
            fill: '#10b981',
            paths: bars,
            points: { show: false },
            value: (u, _v, _si, idx) => String(count(idx ?? u.cursor.idx, 'successes') ?? '—'),
          },
        ],
        cursor: { points: { show: false } },
      };
    },
    [stats],
  );
  const label = `Attempts per ${per(stats.bucketSeconds)} over ${stats.window}: ${stats.successes} succeeded, ${stats.failures} failed`;
  return (
    <figure className="min-w-0 overflow-hidden" data-testid="chart-outcomes">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">Attempts per {per(stats.bucketSeconds)} (UTC)</figcaption>
      <UplotChart label={label} height={HEIGHT} data={data} options={options} />
    </figure>
  );
}

const clamp = (v: number | null) => (v === null ? null : Math.max(1, v));

/** The dashed timeout line across the plot, labelled on the canvas (the caption says it in words). */
const drawTimeout = (c: TChartColors) => (u: uPlot) => {
  const y = u.valToPos(DELIVERY_TIMEOUT_MS, 'y', true);
  const { left, width } = u.bbox;
  const ctx = u.ctx;
  const px = devicePixelRatio || 1;
  ctx.save();
  ctx.strokeStyle = '#e11d48';
  ctx.lineWidth = px;
  ctx.setLineDash([6 * px, 3 * px]);
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.fillStyle = c.warning;
  ctx.font = `${11 * px}px ui-sans-serif, system-ui, sans-serif`;
  ctx.textAlign = 'right';
  ctx.fillText('timeout 15 s', left + width - 4 * px, y - 4 * px);
  ctx.restore();
};

export function LatencyChart({ stats }: { stats: TWebhookStats }) {
  const data = useMemo<uPlot.AlignedData>(() => {
    const b = stats.buckets;
    return [b.map((x) => seconds(x.start)), b.map((x) => clamp(x.p50)), b.map((x) => clamp(x.p95)), b.map((x) => clamp(x.p99))];
  }, [stats]);
  const options = useCallback(
    (U: TUplot, c: TChartColors): Omit<uPlot.Options, 'width' | 'height'> => {
      const t = timeAxis(stats, U, c);
      const line = (label: string, stroke: string): uPlot.Series => ({
        label,
        stroke,
        width: 1.5,
        spanGaps: true,
        points: { show: true, size: 5, fill: stroke },
        value: (_u, v) => (v == null ? '—' : formatMs(v)),
      });
      return {
        tzDate: t.tzDate,
        scales: { x: { time: true }, y: { distr: 3, log: 10, auto: false, range: [1, 30_000] } },
        axes: [t.x, { ...axis(c), splits: () => LOG_TICKS, values: (_u, ticks) => ticks.map((v) => (v < 1000 ? `${v} ms` : `${v / 1000} s`)), size: 52 }],
        series: [t.xSeries, line('p50', '#0ea5e9'), line('p95', '#6366f1'), line('p99', '#a855f7')],
        hooks: { draw: [drawTimeout(c)] },
      };
    },
    [stats],
  );
  const p95 = stats.responseTimeMs.p95;
  const label = `Response time p50, p95 and p99 per ${per(stats.bucketSeconds)} over ${stats.window}, against the 15 s timeout (log scale): p95 ${formatMs(p95)} over the window`;
  return (
    <figure className="min-w-0 overflow-hidden" data-testid="chart-latency">
      <figcaption className="mb-1 text-xs font-medium text-slate-600">
        Response time p50 / p95 / p99 against the <span className="text-rose-700">timeout 15 s</span> (dashed; log scale)
      </figcaption>
      <UplotChart label={label} height={HEIGHT} data={data} options={options} />
    </figure>
  );
}
