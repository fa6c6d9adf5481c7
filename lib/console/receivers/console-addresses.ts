import os from 'node:os';
import { getDb } from '@/lib/db/client';
import { receiverHosts } from '@/lib/db/schema/console';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { hostOfUrl, type TConsoleAddresses } from './receiver-urls';

// The addresses this console's receivers are reached under (lib/console/receivers/receiver-urls.ts decides
// with them): the public URLs, CONSOLE_RECEIVER_HOSTS, PORT with loopback and this machine's
// interfaces, and the hosts verified arrivals came to (console.receiver_hosts, read at most once
// every few seconds per process).

const LEARNED_TTL_MS = 3000;
const cache = processSingleton('console-addresses', () => ({ at: 0, learned: new Map<string, string[]>() }));

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .map((i) => i?.address)
    .filter((a): a is string => Boolean(a));
}

async function learnedHosts(): Promise<Map<string, string[]>> {
  if (Date.now() - cache.at < LEARNED_TTL_MS) return cache.learned;
  const db = await getDb();
  const rows = await db.select({ receiverId: receiverHosts.receiverId, host: receiverHosts.host }).from(receiverHosts);
  const learned = new Map<string, string[]>();
  for (const r of rows) learned.set(r.receiverId, [...(learned.get(r.receiverId) ?? []), r.host]);
  cache.learned = learned;
  cache.at = Date.now();
  return learned;
}

/** Called when this process learns a host, so its next read sees it at once. */
export function forgetLearnedHosts(): void {
  cache.at = 0;
}

/** What the settings and the machine say: read once per process. */
const fixed = () =>
  processSingleton('console-addresses-fixed', () => ({
    hosts: [...[env.CONSOLE_PUBLIC_URL, env.PUBLIC_URL].map(hostOfUrl).filter((h): h is string => h !== null), ...env.CONSOLE_RECEIVER_HOSTS],
    port: String(env.PORT),
    localAddresses: interfaceAddresses(),
  }));

export async function consoleAddresses(): Promise<TConsoleAddresses> {
  return { ...fixed(), learned: await learnedHosts() };
}
