import 'server-only';
import { redirect } from 'next/navigation';
import { loadOrError } from '../connect-api/load-or-error';
import { parsePayloadQuery } from '../search/payload-query';
import { searchPayloads } from '../search/search-payloads';
import { searchWindowOf } from '../search/search-window';
import { liveShares } from '../share/shares';
import { staffView } from '../staff/staff-view';
import { buildCase } from './build-case';
import { searchTermProblem } from './search-query';

// The case page's view for a search term: why it cannot be searched, the payload search's results
// (`path=value` or "quoted text" over a window of at most 31 days), or the case it names (an id, a
// tracking id, an e-mail; a redirect when the term is a page of its own) with its live share links.
// API failures come as inline errors; a viewer gets it all masked (staffView).

export const loadCaseView = staffView(async ({ staff, api }, q: string, window: { since: string | null; until: string | null }) => {
  const termProblem = searchTermProblem(q.trim());
  if (termProblem) return { kind: 'bad-term', problem: termProblem } as const;
  const payload = parsePayloadQuery(q);
  if (payload) {
    const searchWindow = 'query' in payload ? searchWindowOf(window.since, window.until) : null;
    const problem = 'problem' in payload ? payload.problem : searchWindow && 'path' in searchWindow ? searchWindow.message : null;
    if (problem || !searchWindow || 'path' in searchWindow || !('query' in payload)) return { kind: 'bad-search', problem } as const;
    const results = await loadOrError(() => searchPayloads(staff.environment, api, q, payload.query, searchWindow));
    return results.data ? ({ kind: 'search', results: results.data } as const) : ({ kind: 'search-error', error: results.error } as const);
  }
  const found = await loadOrError(() => buildCase(staff.environment, api, q));
  if (found.data?.redirect) redirect(found.data.redirect);
  if (!found.data) return { kind: 'case-error', error: found.error } as const;
  return { kind: 'case', found: found.data, shares: await liveShares(found.data.query) } as const;
});
