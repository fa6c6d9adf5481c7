import { processSingleton } from '@/lib/process-singleton';

// A per-process read-through cache whose entries live at most `ttlMs` from the moment their read
// began: a value read from the database is never served once the database is `ttlMs` older than
// the read, so a change made anywhere is seen everywhere within `ttlMs` (docs/API.md lists each
// cache and its bound). The process that makes a change drops the entry itself, at once. Entries
// are promises: concurrent misses share one read; a read that fails is not kept, and one that
// `delete`/`clear` overtook is not kept either (it may predate the change). `now` is the clock the
// TTL is read on (monotonic milliseconds; tests pass one they move by hand).

export type TTtlCache<K, V> = {
  /** The cached value of `key`, or `load()`'s, kept for the cache's TTL. */
  get(key: K, load: () => Promise<V>): Promise<V>;
  delete(key: K): void;
  clear(): void;
};

type TEntry<V> = { value: Promise<V>; expiresAt: number };

export function ttlCache<K, V>(
  name: string,
  { ttlMs, maxEntries = 10_000, now: clock = () => performance.now() }: { ttlMs: number; maxEntries?: number; now?: () => number },
): TTtlCache<K, V> {
  const entries = processSingleton(`ttl-cache:${name}`, () => new Map<K, TEntry<V>>());
  return {
    get(key, load) {
      const now = clock();
      const hit = entries.get(key);
      if (hit && hit.expiresAt > now) return hit.value;
      // Full: start afresh rather than track ages (the bound is on staleness, not on hits).
      if (entries.size >= maxEntries) entries.clear();
      const entry: TEntry<V> = { value: load(), expiresAt: now + ttlMs };
      entries.set(key, entry);
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return entry.value;
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
}
