// One value per process, whichever bundle asks: Next compiles route handlers, pages and
// instrumentation into separate module graphs, so module-level state would exist once per graph.
// The value lives on globalThis under `key` (prefixed, so it cannot clash with anything else).

const store = globalThis as unknown as Record<string, unknown>;

/** The process's value under `key`, made by `init` on first use. */
export function processSingleton<T>(key: string, init: () => T): T {
  const name = `__gc:${key}`;
  if (!(name in store)) store[name] = init();
  return store[name] as T;
}

/** Forgets the value under `key` (a later `processSingleton` makes a new one). */
export function dropProcessSingleton(key: string): void {
  delete store[`__gc:${key}`];
}

/** The value under `key` if one was made, without making one. */
export function existingProcessSingleton<T>(key: string): T | undefined {
  return store[`__gc:${key}`] as T | undefined;
}
