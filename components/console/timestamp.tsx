// Times are shown in UTC, the same on server and client (no hydration drift), with the full ISO in the tooltip.
// `zone` writes "UTC" after the time too, where the page says no zone elsewhere (a case, read by
// people who may not know the console's times are UTC).

import { formatUtc } from '@/lib/console/format';

export function Timestamp({
  value,
  withMs,
  zone,
  className = '',
}: {
  value: string | Date | null | undefined;
  withMs?: boolean;
  zone?: boolean;
  className?: string;
}) {
  if (!value) return <span className="text-slate-500">—</span>;
  const iso = typeof value === 'string' ? value : value.toISOString();
  return (
    <time dateTime={iso} title={`${iso} (UTC)`} className={`whitespace-nowrap font-mono text-xs tabular-nums ${className}`}>
      {zone ? `${formatUtc(value, withMs)} UTC` : formatUtc(value, withMs)}
    </time>
  );
}
