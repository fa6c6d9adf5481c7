'use client';

import { useEffect, useRef, useState, type ReactNode } from 'react';

// A box that scrolls sideways when its content is wider (a table on a phone). While it does, it is a
// Tab stop named by `label`, so a keyboard can scroll it too (WCAG 2.1.1; axe's
// scrollable-region-focusable); while everything fits it adds no Tab stop.

export function ScrollRegion({ label, className = '', children }: { label?: string; className?: string; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setScrolls(el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={box} className={`overflow-x-auto ${className}`} {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label ?? 'Table' } : {})}>
      {children}
    </div>
  );
}
