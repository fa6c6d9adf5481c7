// Console: the alert rules of the staff member's environment — list, and create (the signing secret is in this answer only).
import { z } from 'zod';
import { alertRuleJson, createAlertRule, listAlertRules } from '@/lib/console/alerts/alert-rules';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

// Shapes only; createAlertRule validates the values (ZAlertRuleInput) and the target (SSRF).
const ZCreate = z.object({
  name: z.string(),
  kind: z.string(),
  webhookId: z.string().nullable().optional(),
  threshold: z.number().optional(),
  window: z.string().optional(),
  minAttempts: z.number().optional(),
  targetUrl: z.string(),
  targetFormat: z.string().optional(),
  enabled: z.boolean().optional(),
});

export const GET = withStaff(async ({ staff }) => json({ results: (await listAlertRules(staff.environment)).map(alertRuleJson) }));

export const POST = withStaff({ role: 'admin', audit: 'alert-rule.create' }, async ({ req, staff, audit }) => {
  const input = await readJson(req, ZCreate);
  const created = await createAlertRule(staff.environment, input as Parameters<typeof createAlertRule>[1]);
  audit({ target: [created.rule.id], detail: { name: created.rule.name, kind: created.rule.kind } });
  return json(created, { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
