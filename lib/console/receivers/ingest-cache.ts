import { processSingleton } from '@/lib/process-singleton';
import { getReceiver } from './get-receiver';
import type { TReceiver } from './types';

// The ingest route looks receivers up by slug on every request; a one-second cache keeps that off
// the database while settings changes still show within a second (on every instance).
const RECEIVER_TTL_MS = 1000;
const receiverCache = processSingleton('receiver-cache', () => new Map<string, { receiver: TReceiver | null; at: number }>());

export async function receiverForIngest(slug: string): Promise<TReceiver | null> {
  const cache = receiverCache;
  const hit = cache.get(slug);
  const now = Date.now();
  if (hit && now - hit.at < RECEIVER_TTL_MS) return hit.receiver;
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(slug)) return null;
  const receiver = await getReceiver(slug);
  if (cache.size > 10_000) cache.clear();
  // Unknown slugs are not cached: a receiver created a moment ago must answer at once.
  if (receiver) cache.set(slug, { receiver, at: now });
  return receiver;
}

/** Called on every change of a receiver, so this instance sees it at once. */
export function forgetCachedReceiver(slug: string): void {
  receiverCache.delete(slug);
}
