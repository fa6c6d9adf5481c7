import 'server-only';
import { ApiError } from '@/lib/http/errors';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';
import { findProblems } from './find-problems';
import { parseProblemWindow, type TProblemPreset } from './problem-window';

// The problems page's view: the window read from the URL (a bad one as its message, for the page to
// show with a way back), the preset it matches (the last 7 days when nothing is asked), the problems
// found (an API failure as an inline error), and the link to the older ones. A viewer gets it masked.

export const loadProblemsView = staffView(async ({ staff, api }, sp: URLSearchParams) => {
  let window;
  try {
    window = parseProblemWindow(sp);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { windowError: err.message } as const;
  }
  const result = await loadOrError(() => findProblems(staff.environment, api, window));
  const data = result.data ?? null;
  const preset: TProblemPreset | null = window.last ?? (!sp.get('since') && !sp.get('until') ? '7d' : null);
  return {
    windowError: null,
    since: window.since.toISOString(),
    until: window.until.toISOString(),
    preset,
    data,
    error: result.error ?? null,
    older: data?.nextPageToken ? `?${new URLSearchParams({ since: data.since, until: data.until, pageToken: data.nextPageToken })}` : null,
  } as const;
});
