import { processSingleton } from '@/lib/process-singleton';
import { storeHandle } from './client';
import type { TOnNotify, TUnlisten } from './drivers/handle';

// LISTEN/NOTIFY on either store: a NOTIFY reaches every process's LISTEN on its channel when the
// notifying transaction commits (lib/db/listeners.ts asks whether anyone listens).

/** This process's LISTENs in place, by channel (lib/db/listeners.ts asks on the embedded store). */
const listens = processSingleton('db-listens', () => new Map<string, number>());

/** Calls `onNotify` whenever a transaction that ran `select pg_notify(channel, …)` commits, in any process. */
export async function listenDb(channel: string, onNotify: TOnNotify): Promise<TUnlisten> {
  const unlisten = await (await storeHandle()).listen(channel, onNotify);
  listens.set(channel, (listens.get(channel) ?? 0) + 1);
  let done = false;
  return async () => {
    if (!done) listens.set(channel, (listens.get(channel) ?? 1) - 1);
    done = true;
    await unlisten();
  };
}

/** How many LISTENs this process has in place on `channel`. */
export function localListens(channel: string): number {
  return listens.get(channel) ?? 0;
}
