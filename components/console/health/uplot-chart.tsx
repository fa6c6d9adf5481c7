'use client';

import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';

// A uPlot chart in a box that follows its container's width. uPlot (~20 KB sent) is loaded only
// when a chart is drawn, in its own chunk, so pages without charts never fetch it. The chart is an
// image to assistive technology, named by `label` (a sentence of what it shows); the legend below
// it repeats the values under the pointer.

export type TUplot = typeof uPlot;
let loaded: TUplot | null = null;

async function loadUplot(): Promise<TUplot> {
  loaded ??= (await import('uplot')).default;
  return loaded;
}

export function UplotChart({ label, height, data, options }: { label: string; height: number; data: uPlot.AlignedData; options: (U: TUplot) => Omit<uPlot.Options, 'width' | 'height'> }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let gone = false;
    const resize = new ResizeObserver(() => plot?.setSize({ width: el.clientWidth, height }));
    const draw = (U: TUplot) => {
      if (gone) return;
      plot = new U({ ...options(U), width: el.clientWidth, height }, data, el);
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
  }, [data, height, options]);
  return <div ref={box} role="img" aria-label={label} className="min-w-0 [&_.u-legend]:text-xs [&_.u-legend_th]:font-medium" style={{ minHeight: height }} />;
}
