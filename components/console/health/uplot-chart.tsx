'use client';

import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type uPlot from 'uplot';

// A uPlot chart in a box that follows its container's width. uPlot (~20 KB sent) is loaded only
// when a chart is drawn, in its own chunk, so pages without charts never fetch it. The chart is an
// image to assistive technology, named by `label` (a sentence of what it shows); the legend below
// it gives the values under the pointer, and the latest bucket's while the pointer is elsewhere
// (uPlot's own legend says "—" until hovered). It is drawn again in the colours of a new theme.

export type TUplot = typeof uPlot;
/** The theme's colours a canvas cannot take from CSS itself: axis text, grid lines, a warning's text. */
export type TChartColors = { axis: string; grid: string; warning: string };

function chartColors(el: HTMLElement): TChartColors {
  const style = getComputedStyle(el);
  const css = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return { axis: css('--color-slate-500', '#64748b'), grid: css('--color-slate-200', '#e2e8f0'), warning: css('--color-rose-700', '#be123c') };
}

// The theme in force: the class of <html> (the staff member's choice) and the system's preference.
const DARK_QUERY = '(prefers-color-scheme: dark)';
function subscribeTheme(onChange: () => void): () => void {
  const classes = new MutationObserver(onChange);
  classes.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  const media = matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  return () => {
    classes.disconnect();
    media.removeEventListener('change', onChange);
  };
}
const themeKey = () => `${document.documentElement.className}|${matchMedia(DARK_QUERY).matches}`;
let loaded: TUplot | null = null;

async function loadUplot(): Promise<TUplot> {
  loaded ??= (await import('uplot')).default;
  return loaded;
}

/** The last point any series has a value at (the latest bucket with something in it), else the last. */
export function latestIndex(data: uPlot.AlignedData): number | null {
  const n = data[0]?.length ?? 0;
  for (let i = n - 1; i >= 0; i--) if (data.slice(1).some((s) => s[i] != null)) return i;
  return n ? n - 1 : null;
}

/** Keeps the legend on the latest values whenever the cursor leaves it without a point (at first, and after a hover). */
function legendOnLatest(u: uPlot): void {
  if (u.legend.idx == null) u.setLegend({ idx: latestIndex(u.data) ?? undefined }, false);
}

function withLatestLegend(o: Omit<uPlot.Options, 'width' | 'height'>): Omit<uPlot.Options, 'width' | 'height'> {
  const hooks = o.hooks ?? {};
  return { ...o, hooks: { ...hooks, ready: [...(hooks.ready ?? []), legendOnLatest], setLegend: [...(hooks.setLegend ?? []), legendOnLatest] } };
}

/** The legend's room under a chart (two lines on a phone, one from 640 px), reserved before it is drawn. */
export const LEGEND_ROOM = '[--legend:56px] sm:[--legend:28px]';

export function UplotChart({
  label,
  height,
  data,
  options,
}: {
  label: string;
  height: number;
  data: uPlot.AlignedData;
  options: (U: TUplot, colors: TChartColors) => Omit<uPlot.Options, 'width' | 'height'>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const theme = useSyncExternalStore(subscribeTheme, themeKey, () => '');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
    const draw = (U: TUplot) => {
      if (gone) return;
      plot = new U({ ...withLatestLegend(options(U, chartColors(el))), width: el.clientWidth, height }, data, el);
      resize.observe(el);
    };
    // Once loaded, redraw at once (no empty frame while the figures refresh).
    if (loaded) draw(loaded);
    else void loadUplot().then(draw);
    return () => {
      gone = true;
      resize.disconnect();
      plot?.destroy();
    };
  }, [data, height, options, theme]);
  return (
    <div
      ref={box}
      role="img"
      aria-label={label}
      className={`min-w-0 [&_.u-legend]:text-xs [&_.u-legend_th]:font-medium ${LEGEND_ROOM}`}
      style={{ minHeight: `calc(${height}px + var(--legend))` }}
    />
  );
}
