import { formatUtc } from '@/lib/console/format';

// A time to come as "in 3 min", measured from a given `now` (the moment the data was read, so the
// server and the browser print the same words); "due now" once it has passed. The UTC time is the tooltip.

export function relativeFromNow(value: string | Date, now: string | Date): string {
  const ms = new Date(value).getTime() - new Date(now).getTime();
  if (Number.isNaN(ms)) return String(value);
  if (ms <= 0) return 'due now';
  const s = Math.round(ms / 1000);
  if (s < 60) return `in ${s} s`;
  const min = Math.round(s / 60);
  if (min < 60) return `in ${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `in ${h} h ${min % 60} min` : `in ${h} h`;
  return `in ${Math.round(h / 24)} days`;
}

export function RelativeTime({ value, now, className = '' }: { value: string | null | undefined; now: string | Date; className?: string }) {
  const at = value ? new Date(value) : null;
  if (!at || Number.isNaN(at.getTime())) return <span className="text-slate-500">{value || '—'}</span>;
  const iso = at.toISOString();
  return (
    <time dateTime={iso} title={`${formatUtc(at, true)} UTC`} className={`whitespace-nowrap text-xs tabular-nums ${className}`}>
      {relativeFromNow(at, now)}
    </time>
  );
}
