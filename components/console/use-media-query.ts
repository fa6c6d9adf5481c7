'use client';

import { useSyncExternalStore } from 'react';

// Whether a CSS media query matches, kept in step with the window. On the server (and during
// hydration) it answers `serverValue`, so what is rendered first never depends on the screen.

export function useMediaQuery(query: string, serverValue: boolean): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverValue,
  );
}

/** Tailwind's `md` breakpoint: from here on the timeline is a table, below it cards. */
export const WIDE_QUERY = '(min-width: 48rem)';
