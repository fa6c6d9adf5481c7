import 'server-only';
import { staffQueryView } from '../staff/staff-view';
import { listAudit, parseAuditFilters } from './list-audit';

// The audit log page's view: the filters read from the URL (a bad one is the page's query error) and
// one page of entries, newest first. A viewer gets it masked, as GET /api/audit answers it.

export const loadAuditView = staffQueryView(parseAuditFilters, async (_ctx, filters) => listAudit(filters));
