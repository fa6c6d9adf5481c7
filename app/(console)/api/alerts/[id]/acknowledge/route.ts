// Console: POST {note?} — acknowledge a firing alert: it stays firing but quiet (no reminders), and the banner names who took it. Operators and admins; audited.
import { acknowledgeAlert, ZAcknowledge } from '@/lib/console/alerts/acknowledge-alert';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'operator', audit: 'alert.acknowledge' }, async ({ req, params, staff, audit }) => {
  audit({ target: [params.id] });
  const { note } = await readJson(req, ZAcknowledge, { optional: true });
  audit({ detail: { note: note ?? null } });
  return json(await acknowledgeAlert(staff.environment, params.id, staff.email, note));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
