import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffQueryView } from '../staff/staff-view';
import { findProblems } from './find-problems';
import { parseProblemWindow, type TProblemPreset } from './problem-window';

// The problems page's view: the window read from the URL (a bad one is the page's query error, shown
// with a way back), the preset it matches (the last 7 days when nothing is asked), the problems
// found (an API failure as an inline error), and the link to the older ones. A viewer gets it masked.

const parseProblemsQuery = (sp: URLSearchParams) => ({ window: parseProblemWindow(sp), asked: !!(sp.get('since') || sp.get('until')) });

export const loadProblemsView = staffQueryView(parseProblemsQuery, async ({ staff, api }, { window, asked }) => {
  const result = await loadOrError(() => findProblems(staff.environment, api, window));
  const data = result.data ?? null;
  const preset: TProblemPreset | null = window.last ?? (asked ? null : '7d');
  return {
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    preset,
    data,
    error: result.error ?? null,
    older: data?.nextPageToken ? `?${new URLSearchParams({ since: data.since, until: data.until, pageToken: data.nextPageToken })}` : null,
  } as const;
});
