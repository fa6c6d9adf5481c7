// Figures of the health views as short text (pure; server and client alike).

export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  const p = rate * 100;
  return `${p === 100 || p === 0 ? p.toFixed(0) : p >= 99 ? p.toFixed(2) : p.toFixed(1)}%`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** "3 min ago" from `now` (the moment the data was read, so server and browser agree). */
export function ago(value: string | null, now: string): string {
  if (!value) return 'never';
  const s = Math.max(0, Math.round((Date.parse(now) - Date.parse(value)) / 1000));
  if (s < 60) return `${s} s ago`;
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.round(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.round(h / 24)} days ago`;
}

export function formatAge(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

/** A bucket's start as the chart's axis label: the time for 1h/24h, the day and hour for 7d. */
export function bucketLabel(start: string, bucketSeconds: number): string {
  const d = new Date(start);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  if (bucketSeconds < 6 * 3600) return hm;
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()} ${hm}`;
}
