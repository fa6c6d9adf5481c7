// A time as an alert says it to people: in the console's zone (CONSOLE_TIME_ZONE), the zone named —
// "2026-11-29 04:26:28 (Europe/Berlin)". Pure: the e-mail, Slack and the /alerts page share it.

export function zonedTime(value: string | Date, timeZone: string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} (${timeZone})`;
}
