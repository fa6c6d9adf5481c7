import { dropProcessSingleton, processSingleton } from '@/lib/process-singleton';
import { dbKind } from './client';
import { groupCommit, type TGroupWriter } from './group-commit';

/**
 * The process's group-commit writer named `key` (see group-commit.ts): one batch at a time on the
 * embedded store, which is one connection; up to `postgresInFlight` side by side on PostgreSQL
 * (1 where batches would wait on each other's row locks anyway: then one larger batch is cheaper).
 */
export function batchWriter<T, R>(key: string, write: (items: T[]) => Promise<R[]>, { maxBatch = 200, postgresInFlight = 4 } = {}): (item: T) => Promise<R> {
  const writer = () =>
    processSingleton<Promise<TGroupWriter<T, R>>>(`batch-writer:${key}`, () =>
      dbKind().then(
        (kind) => groupCommit(write, { maxBatch, maxInFlight: kind === 'pglite' ? 1 : postgresInFlight }),
        (err) => {
          dropProcessSingleton(`batch-writer:${key}`);
          throw err;
        },
      ),
    );
  return async (item) => (await writer()).submit(item);
}
