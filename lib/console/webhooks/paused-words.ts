import { formatUtcClock } from '@/lib/console/format';

// A paused webhook in words, the same on the webhook page, the health home and a case: "paused since
// 14:02 UTC by ops@example.org" (a day before today: "Nov 27 14:02 UTC"), or "… through the API"
// when this console's audit log does not name who (another client of the service paused it).

export function pausedSince(pausedAt: string, by: string | null | undefined, now: string | Date): string {
  const who = by ? ` by ${by}` : by === null ? ' through the API' : '';
  return `paused since ${formatUtcClock(pausedAt, now)} UTC${who}`;
}
