// Times are shown in UTC, the same on server and client (no hydration drift), with the full ISO in the tooltip.

import { formatUtc } from '@/lib/format';

export function Timestamp({ value, withMs, className = '' }: { value: string | Date | null | undefined; withMs?: boolean; className?: string }) {
  if (!value) return <span className="text-slate-500">—</span>;
  const iso = typeof value === 'string' ? value : value.toISOString();
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className={`whitespace-nowrap font-mono text-xs tabular-nums ${className}`}>
      {formatUtc(value, withMs)}
    </time>
  );
}
