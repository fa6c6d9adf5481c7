// Console: one alert rule — PATCH {enabled} switches it on or off (off clears what it had firing), DELETE removes it and its alerts.
import { deleteAlertRule, setAlertRuleEnabled } from '@/lib/console/alerts/alert-rules';
import { ZAlertRulePatch } from '@/lib/console/alerts/rule-schemas';
import { withStaff } from '@/lib/console/staff/with-staff';
import { recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const PATCH = withStaff<{ id: string }>({ role: 'admin' }, async ({ req, params, staff }) => {
  const { enabled } = await readJson(req, ZAlertRulePatch);
  const rule = await setAlertRuleEnabled(staff.environment, params.id, enabled);
  await recordAudit(await getDb(), { actor: staff, action: 'alert-rule.update', target: [params.id], result: 'ok', detail: { enabled } });
  return json(rule);
});

export const DELETE = withStaff<{ id: string }>({ role: 'admin' }, async ({ params, staff }) => {
  await deleteAlertRule(staff.environment, params.id);
  await recordAudit(await getDb(), { actor: staff, action: 'alert-rule.delete', target: [params.id], result: 'ok' });
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethods(['PATCH', 'DELETE']);
