import { aboutWords } from '../health/disable-warning';

// A capped webhook in words (EXT `rateLimit`), on the health home and the webhook page: "capped at
// 20/s — 1,240 waiting, drains in about 1 min" (what waits, at the cap), or "capped at 20/s".

export function cappedWords(rateLimit: number, waiting: number | null): string {
  const cap = `capped at ${rateLimit}/s`;
  if (!waiting) return cap;
  return `${cap} — ${waiting.toLocaleString('en-US')} waiting, drains in ${aboutWords((waiting / rateLimit) * 1000)}`;
}
