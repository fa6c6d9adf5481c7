import { getDb } from '@/lib/db/client';
import { receiverHosts } from '@/lib/db/schema/console';
import { processSingleton } from '@/lib/process-singleton';
import { forgetLearnedHosts } from './console-addresses';

// The hosts verified arrivals came to, remembered per receiver: a webhook URL under one of them
// reaches this console (a proxy's public name, a LAN address nobody listed). Only a verified
// arrival teaches a host — a sender that cannot sign cannot make the console claim an address —
// and each (receiver, host) is written once per process; a receiver keeps at most MAX_HOSTS.

const MAX_HOSTS = 50;
const seen = processSingleton('learned-receiver-hosts', () => new Map<string, Set<string>>());

export async function learnHost(receiverId: string, host: string): Promise<void> {
  if (!host) return;
  const known = seen.get(receiverId) ?? new Set<string>();
  if (known.has(host) || known.size >= MAX_HOSTS) return;
  known.add(host);
  seen.set(receiverId, known);
  const db = await getDb();
  await db.insert(receiverHosts).values({ receiverId, host }).onConflictDoNothing();
  forgetLearnedHosts();
}
