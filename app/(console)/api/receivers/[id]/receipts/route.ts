// Console: a receiver's receipts as JSON, newest first (?pageLimit=&pageToken=&q=<search>), for live views.
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceiver, listReceipts, receiptJson } from '@/lib/console/receivers';
import { withStaff } from '@/lib/console/staff/with-staff';
import { badPageToken, parsePageLimit } from '@/lib/http/page-limit';

export const dynamic = 'force-dynamic';

// The page token is the id of the last receipt of the previous page.
function beforeParam(sp: URLSearchParams): number | undefined {
  const raw = sp.get('pageToken');
  if (raw === null || raw === '') return undefined;
  if (!/^[1-9]\d{0,14}$/.test(raw)) throw badPageToken('console');
  return Number(raw);
}

export const GET = withStaff<{ id: string }>(async ({ req, params }) => {
  const sp = req.nextUrl.searchParams;
  const limit = parsePageLimit(sp, 50);
  const before = beforeParam(sp);
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  const page = await listReceipts(receiver.id, { limit, before, q: sp.get('q')?.slice(0, 200) || undefined });
  return json(
    { results: page.receipts.map(receiptJson), ...(page.nextBefore ? { nextPageToken: String(page.nextBefore) } : {}) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
