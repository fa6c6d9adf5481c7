import 'server-only';
import { loadOrError } from '../connect-api/load-or-error';
import { staffView } from '../staff/staff-view';

// A Connect's grants page: a page of its grants read with the Connect's API key (never part of the
// view), each failure as an inline error, and the donor page's URL. A viewer gets the donors masked.

export const GRANTS_PAGE_SIZE = 25;

export const loadGrantsView = staffView(async ({ api }, connectId: string, pageToken?: string) => {
  const connect = await loadOrError(() => api.get('/v1/connects/{id}', { params: { path: { id: connectId } } }));
  const apiKey = connect.data?.apiKey;
  const grants = apiKey
    ? await loadOrError(() =>
        api.get('/v1/grants', { params: { query: { pageLimit: GRANTS_PAGE_SIZE, pageToken } }, headers: { 'x-service-api-key': apiKey } }),
      )
    : null;
  return {
    connectError: connect.error ?? null,
    /** The API returned the Connect without its key: its grants cannot be read. */
    noApiKey: !!connect.data && !apiKey,
    grants: grants?.data ?? null,
    grantsError: grants?.error ?? null,
    // The donor page is the service's, on the API's host (this app's only when the service is embedded).
    donorPage: api.serviceUrl(`/connect/${encodeURIComponent(connectId)}`),
  };
});
