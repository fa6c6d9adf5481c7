// Console: POST {note?} — acknowledge a firing alert: it stays firing but quiet (no reminders), and the banner names who took it. Operators and admins; audited.
import { acknowledgeAlert, ZAcknowledge } from '@/lib/console/alerts/acknowledge-alert';
import { recordAudit } from '@/lib/console/audit/record-audit';
import { withStaff } from '@/lib/console/staff/with-staff';
import { getDb } from '@/lib/db/client';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const POST = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const { note } = await readJson(req, ZAcknowledge, { optional: true });
  const alert = await acknowledgeAlert(staff.environment, params.id, staff.email, note);
  await recordAudit(await getDb(), { actor: staff, action: 'alert.acknowledge', target: [params.id], result: 'ok', detail: { note: note ?? null } });
  return json(alert);
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
