// Whatever the bench creates (temp directories, PostgreSQL databases, processes) registers its
// removal here, so an interrupted run (Ctrl-C) still leaves nothing behind.

type TCleanup = () => Promise<void>;
const pending = new Set<TCleanup>();

/** Registers `fn`; returns it wrapped so that running it also unregisters it (and runs it once). */
export function onCleanup(fn: TCleanup): TCleanup {
  let done: Promise<void> | null = null;
  const once: TCleanup = () => {
    pending.delete(once);
    done ??= fn();
    return done;
  };
  pending.add(once);
  return once;
}

/** Runs every registered cleanup, newest first; failures are reported, not thrown. */
export async function runCleanups(): Promise<void> {
  for (const fn of [...pending].reverse()) {
    await fn().catch((err) => console.error(`cleanup failed: ${String(err)}`));
  }
}

export function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n${signal}: cleaning up…`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
}
