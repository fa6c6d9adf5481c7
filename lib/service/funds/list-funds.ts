import { ApiError } from '@/lib/http/errors';
import { pageOf, type TPageParams } from '@/lib/service/paging';
import { DAF_FUNDS } from '@/lib/service/grants/constants';

export type TFundJson = { id: string; name: string };

/** The funds have no creation time: a page token names the last fund seen, in the list's fixed order. */
const LISTED_AT = new Date(0);

/** EXT GET /v1/funds: the donor-advised funds a grant's fundId may name, paged like every list. */
export async function listFunds({ limit, cursor, scope }: TPageParams): Promise<{ results: TFundJson[]; nextPageToken?: string }> {
  const start = cursor ? DAF_FUNDS.findIndex((f) => f.id === cursor.id) + 1 : 0;
  if (cursor && start === 0) {
    throw new ApiError('bad_request', 'pageToken names a fund this service no longer lists; start again without it.', {
      errors: [{ path: 'pageToken', message: 'unknown page token' }],
    });
  }
  const rows = DAF_FUNDS.slice(start, start + limit + 1);
  return pageOf(
    rows,
    limit,
    (f) => ({ createdAt: LISTED_AT, id: f.id }),
    (f) => ({ id: f.id, name: f.name }),
    scope,
  );
}
