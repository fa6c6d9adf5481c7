// Group commit: writes that arrive while one is in flight wait and then go together, as one
// statement in one transaction, and each caller is answered only when its batch has committed.
// With a slot free, a write goes at the end of the event loop's turn (setImmediate), with every
// write submitted in that turn: requests read from many sockets in one turn share a statement, so a
// lone request waits for nobody, and a store that runs on this thread (PGlite: nothing is read from
// the sockets while it writes, so nothing would queue meanwhile) still gets batches. Under load the
// batches grow by themselves and the database commits (and fsyncs) once per batch, not per row.
// `groupCommit` is the mechanism; `groupCommitWriter` is the process's shared one for a kind of write.

import { dropProcessSingleton, processSingleton } from '@/lib/process-singleton';
import { dbKind } from './client';

export type TGroupWriter<T, R> = {
  /** Resolves with this item's result once its batch has committed. */
  submit(item: T): Promise<R>;
  /** Resolves when nothing is queued or in flight. */
  drain(): Promise<void>;
};

type TPending<T, R> = { item: T; resolve: (r: R) => void; reject: (err: unknown) => void };

/**
 * `write(items)` stores the items in one transaction and returns one result per item, in order.
 * When a batch fails, its items are written again one by one, so one bad row fails only its
 * own request.
 */
export function groupCommit<T, R>(
  write: (items: T[]) => Promise<R[]>,
  { maxBatch = 256, maxInFlight = 1 }: { maxBatch?: number; maxInFlight?: number } = {},
): TGroupWriter<T, R> {
  const queue: TPending<T, R>[] = [];
  let inFlight = 0;
  let idle: (() => void)[] = [];
  let scheduled = false;

  async function writeAll(items: T[]): Promise<R[]> {
    const results = await write(items);
    if (results.length !== items.length) throw new Error(`group commit: ${results.length} results for ${items.length} items`);
    return results;
  }

  async function run(batch: TPending<T, R>[]): Promise<void> {
    try {
      const results = await writeAll(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      await Promise.all(
        batch.map((p) =>
          writeAll([p.item]).then(
            ([r]) => p.resolve(r),
            (e) => p.reject(e),
          ),
        ),
      );
    }
  }

  function pump(): void {
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        pump();
        if (inFlight === 0 && queue.length === 0) {
          const waiting = idle;
          idle = [];
          for (const resolve of waiting) resolve();
        }
      });
    }
  }

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (scheduled) return;
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      });
    },
    drain() {
      if (inFlight === 0 && queue.length === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}

/**
 * The process's group-commit writer named `key`: one batch at a time on the embedded store, which
 * is one connection; up to `postgresInFlight` side by side on PostgreSQL (1 where batches would
 * wait on each other's row locks anyway: then one larger batch is cheaper).
 */
export function groupCommitWriter<T, R>(
  key: string,
  write: (items: T[]) => Promise<R[]>,
  { maxBatch = 200, postgresInFlight = 4 } = {},
): (item: T) => Promise<R> {
  const singleton = `group-commit:${key}`;
  const writer = () =>
    processSingleton<Promise<TGroupWriter<T, R>>>(singleton, () =>
      dbKind().then(
        (kind) => groupCommit(write, { maxBatch, maxInFlight: kind === 'pglite' ? 1 : postgresInFlight }),
        (err) => {
          dropProcessSingleton(singleton);
          throw err;
        },
      ),
    );
  return async (item) => (await writer()).submit(item);
}
