import { configuredStore, describeStore, storeDigest, type TStore } from '@/lib/db/store-identity';
import { env } from '@/lib/env';
import type { TCommandIo } from './console-commands';

// Every staff and backup command of the console CLI ends by saying which store it used (DATA_DIR,
// or the PostgreSQL database with its password masked) and who did the work: the running app that
// owns the embedded store (over its control port), or this process. When this process did it, the
// app answering on PORT on this machine is asked which store it serves (GET /api/health's digest,
// lib/db/store-identity.ts): one on another store gets one line of warning — the CLI changed a
// store nobody is looking at (a `.env` naming the old DATA_DIR after a restore into a new one).
// On standard error, so standard output stays the command's own answer (its JSON last).

/** Who did the work: the running app (its pid), or this process. */
export type TDoneBy = { appPid: number } | 'this process';

// Generous: an app under load answers its health late (over 1.5 s beside CI's passes), and a probe
// that gives up too soon leaves out the warning this exists for.
const PROBE_MS = 10_000;

/** The store digest the app on `port` (loopback) answers, or null when nothing of this console answers there. */
async function storeOnPort(port: number): Promise<string | null> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(PROBE_MS), redirect: 'manual' });
    if (!res.ok) return null;
    const body = (await res.json()) as { status?: unknown; store?: unknown };
    return body.status === 'ok' && typeof body.store === 'string' ? body.store : null;
  } catch {
    return null;
  }
}

/** The lines: "Store: …; … did the work (…)." and, when the app on PORT serves another store, "Warning: …". */
export async function storeLines(by: TDoneBy, store: TStore = configuredStore()): Promise<string[]> {
  const where = describeStore(store);
  if (by !== 'this process') return [`Store: ${where}; the running app (pid ${by.appPid}) did the work.`];
  const port = env.PORT;
  const theirs = await storeOnPort(port);
  const alone = store.kind === 'embedded' ? 'no app runs on this DATA_DIR' : `no app of this console answers on port ${port}`;
  if (theirs === null) return [`Store: ${where}; this process did the work (${alone}).`];
  if (theirs === storeDigest(store))
    return [
      `Store: ${where}; this process did the work (the app on port ${port} serves this ${store.kind === 'embedded' ? 'store' : 'database'} and sees it at once).`,
    ];
  return [
    `Store: ${where}; this process did the work (${store.kind === 'embedded' ? 'no app runs on this DATA_DIR' : 'on PostgreSQL the CLI works on the database itself'}).`,
    `Warning: the app answering on port ${port} serves another store, not ${where}: it does not see this. Run the command with that app's DATA_DIR (or DATABASE_URL), or start the app on this one.`,
  ];
}

/** Says on `io.err` which store the command used and who did the work (storeLines). */
export async function reportStore(io: TCommandIo, by: TDoneBy, store?: TStore): Promise<void> {
  for (const line of await storeLines(by, store)) io.err(line);
}
