import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';
import { alertRuleJson, listAlertRules } from './alert-rules';
import { listAlerts } from './list-alerts';

// The alerts page's view: the environment's alerts and rules (never a rule's signing secret) and its
// webhooks' names, for the rules' conditions and the new rule's choices. A viewer gets it masked, as
// GET /api/alerts and /api/alert-rules answer it.

export const loadAlertsView = staffView(async ({ staff, api }) => {
  const [rules, alerts, webhooks] = await Promise.all([
    listAlertRules(staff.environment),
    listAlerts(staff.environment),
    loadOrError(() => api.get('/v1/webhooks', { params: { query: { pageLimit: 100 } } })),
  ]);
  return { rules: rules.map(alertRuleJson), alerts, webhookNames: (webhooks.data?.results ?? []).map((w): [string, string] => [w.id, w.description || w.url]) };
});
