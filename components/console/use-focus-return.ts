'use client';

import { useEffect, useRef } from 'react';

/**
 * Focus back on what opened an inline confirmation or panel once it closes (Cancel, Escape, Close,
 * or its work done): the ref goes on the opener, which is rendered again in the panel's place.
 * Without it focus falls to the page's start and a keyboard user has to find their place again.
 */
export function useFocusReturn<T extends HTMLElement>(open: boolean) {
  const opener = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}
