import { ttlCache } from '@/lib/ttl-cache';
import { getReceiver } from './get-receiver';
import type { TReceiver } from './types';

// The ingest route looks receivers up by slug on every request; a one-second cache keeps that off
// the database while settings changes still show within a second (on every instance). The requests
// that find a slug's second up share one lookup (ttl-cache.ts): each made its own before, ~20
// statements a second at 64 connections — more than the receipts' own INSERTs — each on a pool
// connection of its own, opened again once the pool had closed it idle.
const RECEIVER_TTL_MS = 1000;
const receivers = ttlCache<string, TReceiver | null>('receiver-by-slug', { ttlMs: RECEIVER_TTL_MS });

export async function receiverForIngest(slug: string): Promise<TReceiver | null> {
  if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(slug)) return null;
  const receiver = await receivers.get(slug, () => getReceiver(slug));
  // Unknown slugs are not kept: a receiver created a moment ago (in another process too) must answer at once.
  if (!receiver) receivers.delete(slug);
  return receiver;
}

/** Called on every change of a receiver (and its creation), so this instance sees it at once. */
export function forgetCachedReceiver(slug: string): void {
  receivers.delete(slug);
}
