// Console: POST {hours} — snooze a firing alert's reminders for 1–168 hours (it stays firing). Operators and admins; audited.
import { snoozeAlert, ZSnooze } from '@/lib/console/alerts/acknowledge-alert';
import { recordAudit } from '@/lib/console/audit/record-audit';
import { withStaff } from '@/lib/console/staff/with-staff';
import { getDb } from '@/lib/db/client';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const { hours } = await readJson(req, ZSnooze);
  const alert = await snoozeAlert(staff.environment, params.id, hours);
  await recordAudit(await getDb(), { actor: staff, action: 'alert.snooze', target: [params.id], result: 'ok', detail: { hours, until: alert.snoozedUntil } });
  return json(alert);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
