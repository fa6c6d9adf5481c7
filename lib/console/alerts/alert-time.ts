import { wallClockText } from '@/lib/console/wall-clock';

// A time as an alert says it to people: in the console's zone (CONSOLE_TIME_ZONE), the zone named —
// "2026-11-29 04:26:28 (Europe/Berlin)". Pure: the e-mail, Slack and the /alerts page share it.

export function zonedTime(value: string | Date, timeZone: string): string {
  const d = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(d.getTime())) return String(value);
  return `${wallClockText(d, timeZone)} (${timeZone})`;
}
