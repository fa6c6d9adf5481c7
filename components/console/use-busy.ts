'use client';

import { useCallback, useRef, useState } from 'react';

/**
 * A busy flag for one async step (a server action and the refetch after it), kept outside React's
 * transitions. A transition's `isPending` is entangled with every other pending transition, the
 * router's included: after a server action Next prefetches every link in view again, so a button's
 * "Saving…" lasted until a dozen server renders had ended (1.4 s of 1.7 s measured at load 13). This
 * flag ends when the step does. A run while one is going is ignored; a step that throws reaches the
 * nearest error boundary, as a transition's would.
 */
export function useBusy(): [boolean, (step: () => Promise<unknown>) => void] {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = useCallback((step: () => Promise<unknown>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    step().then(
      () => {
        running.current = false;
        setBusy(false);
      },
      (err: unknown) => {
        running.current = false;
        setBusy(() => {
          throw err;
        });
      },
    );
  }, []);
  return [busy, run];
}
