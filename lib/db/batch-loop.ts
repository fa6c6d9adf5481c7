import { isStoreUnavailable } from './store-availability';
import { processSingleton } from '@/lib/process-singleton';

// The background loops that bring rows stored by an earlier release up to date a batch at a time
// (stats rollups, payload-search columns): `once` does one batch and says how many rows it did (0
// when none is left), and the loop runs it until then, with a pause between batches so it stays in
// the background; a store that went away is waited for (and logged once by the store's
// availability). Each batch is one statement guarded by its own "still to do" condition, so a stop
// anywhere loses nothing and several processes may run the same loop side by side.

type TLoop = { stopped: boolean; running: Promise<void> | null; wake: () => void };
const loops = processSingleton('batch-loops', () => new Map<string, TLoop>());

/** Starts the loop `name` unless it runs; `done(total)` is logged at its end when it did anything. */
export function startBatchLoop(name: string, once: () => Promise<number>, done: (total: number) => string): void {
  const known = loops.get(name);
  if (known && !known.stopped) return;
  const loop: TLoop = { stopped: false, running: null, wake: () => {} };
  loops.set(name, loop);
  loop.running = (async () => {
    let total = 0;
    for (;;) {
      if (loop.stopped) return;
      const n = await once().catch((err: Error) => {
        if (!isStoreUnavailable(err)) console.warn(`${name}: ${err.message}; trying again in 10 s`);
        return -1;
      });
      if (n === 0) break;
      if (n > 0) total += n;
      await new Promise<void>((resolve) => {
        loop.wake = resolve;
        setTimeout(resolve, n < 0 ? 10_000 : 50).unref();
      });
    }
    if (total > 0) console.log(done(total));
  })();
}

/** Stops the loop between batches (a batch under way finishes: it is one statement). */
export async function stopBatchLoop(name: string): Promise<void> {
  const loop = loops.get(name);
  if (!loop || loop.stopped) return;
  loop.stopped = true;
  loop.wake();
  await loop.running;
}
