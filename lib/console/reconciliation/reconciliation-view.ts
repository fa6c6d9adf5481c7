import 'server-only';
import { env } from '@/lib/env';
import { loadOrError } from '../connect-api/load-or-error';
import { tryReportSlot } from '../staff/report-slots';
import { staffQueryView } from '../staff/staff-view';
import { loadReconciliation } from './load-reconciliation';
import { parseReconPageQuery } from './reconciliation-query';

// The reconciliation page's view: the day and list asked for in the URL (a bad one is the page's
// query error), one page of the day (null while two of the reader's reports run: reading the day is
// a report, as the downloads are) and the webhooks' names. A viewer gets it masked.

export const loadReconciliationView = staffQueryView(
  (sp) => parseReconPageQuery(sp, env.CONSOLE_TIME_ZONE),
  async ({ staff, api }, q) => {
    const release = tryReportSlot(staff.userId);
    const [result, webhooks] = await Promise.all([
      release ? loadOrError(() => loadReconciliation(api, q)).finally(release) : null,
      loadOrError(() => api.get('/v1/webhooks', { params: { query: { pageLimit: 100 } } })),
    ]);
    return { result, webhookNames: (webhooks.data?.results ?? []).map((w): [string, string] => [w.id, w.description || w.url]) };
  },
);
