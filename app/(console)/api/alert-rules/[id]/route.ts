// Console: one alert rule — PATCH {enabled} switches it on or off (off clears what it had firing), DELETE removes it and its alerts.
import { deleteAlertRule, setAlertRuleEnabled } from '@/lib/console/alerts/alert-rules';
import { ZAlertRulePatch } from '@/lib/console/alerts/rule-schemas';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const PATCH = withStaff<{ id: string }>({ role: 'admin', audit: 'alert-rule.update' }, async ({ req, params, staff, audit }) => {
  audit({ target: [params.id] });
  const { enabled } = await readJson(req, ZAlertRulePatch);
  audit({ detail: { enabled } });
  return json(await setAlertRuleEnabled(staff.environment, params.id, enabled));
});

export const DELETE = withStaff<{ id: string }>({ role: 'admin', audit: 'alert-rule.delete' }, async ({ params, staff, audit }) => {
  audit({ target: [params.id] });
  await deleteAlertRule(staff.environment, params.id);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethods(['PATCH', 'DELETE']);
