// Console: POST {hours} — snooze a firing alert's reminders for 1–168 hours (it stays firing). Operators and admins; audited.
import { snoozeAlert, ZSnooze } from '@/lib/console/alerts/acknowledge-alert';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'operator', audit: 'alert.snooze' }, async ({ req, params, staff, audit }) => {
  audit({ target: [params.id] });
  const { hours } = await readJson(req, ZSnooze);
  const alert = await snoozeAlert(staff.environment, params.id, hours);
  audit({ detail: { hours, until: alert.snoozedUntil } });
  return json(alert);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
