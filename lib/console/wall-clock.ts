// A moment's wall-clock time in a time zone, with Intl only (one formatter per zone, kept): the
// reconciliation's days and local times and the alerts' times all read it here.

type TWallClock = { year: string; month: string; day: string; hour: string; minute: string; second: string };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    const options = {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    } as const;
    formatters.set(timeZone, (f = new Intl.DateTimeFormat('en-US', options)));
  }
  return f;
}

/** The zone's wall-clock fields at `at`, two digits each (four for the year). */
export function wallClock(at: Date, timeZone: string): TWallClock {
  const parts = formatter(timeZone).formatToParts(at);
  const v = (t: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === t)?.value ?? '';
  return { year: v('year'), month: v('month'), day: v('day'), hour: v('hour'), minute: v('minute'), second: v('second') };
}

/** `2026-11-28 23:15:02`: the zone's wall-clock time at `at` (what a spreadsheet reads as a date and time). */
export function wallClockText(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${w.month}-${w.day} ${w.hour}:${w.minute}:${w.second}`;
}
