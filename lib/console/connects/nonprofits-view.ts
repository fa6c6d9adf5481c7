import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';
import { listCreatedConnects } from './created-connects';

// The Nonprofits & Connects page's view: the nonprofit looked up by EIN, the Connect opened by CID
// (without its API key, which only an admin reveals, one at a time), the Connects made here, one page
// of the service's list, and the donor page's URL. Each API failure is an inline error; a viewer gets
// it masked (a nonprofit's contact, as donor details are).

export const NONPROFITS_PAGE_SIZE = 20;

export type TNonprofitsQuery = { ein: string; cid: string; q: string; pageToken?: string };

export const loadNonprofitsView = staffView(async ({ staff, api }, { ein, cid, q, pageToken }: TNonprofitsQuery) => {
  const [nonprofit, connect, created, list] = await Promise.all([
    ein ? loadOrError(() => api.get('/v1/nonprofit/{ein}', { params: { path: { ein } } })) : null,
    cid ? loadOrError(async () => withoutApiKey(await api.get('/v1/connects/{id}', { params: { path: { id: cid } } }))) : null,
    listCreatedConnects(staff.environment),
    loadOrError(() => api.get('/v1/nonprofits', { params: { query: { q, pageToken, pageLimit: NONPROFITS_PAGE_SIZE } } })),
  ]);
  // The donor page is the service's, on the API's host (this app's only when the service is embedded).
  const donorPage = cid ? api.serviceUrl(`/connect/${encodeURIComponent(cid)}`) : null;
  return { nonprofit, connect, created, list, donorPage };
});

function withoutApiKey<C extends { apiKey?: unknown }>(connect: C): Omit<C, 'apiKey'> {
  const { apiKey: _apiKey, ...rest } = connect;
  return rest;
}
