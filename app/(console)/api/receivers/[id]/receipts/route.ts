// Console: a receiver's receipts as JSON, newest first (?limit=&before=<receipt id>&q=<search>), for live views.
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceiver, listReceipts, receiptJson } from '@/lib/console/receivers';
import { withStaff } from '@/lib/console/session';

export const dynamic = 'force-dynamic';

function intParam(sp: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const raw = sp.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ApiError('bad_request', `${name} must be a whole number from ${min} to ${max}.`, { errors: [{ path: name, message: `must be from ${min} to ${max}` }] });
  }
  return Number(raw);
}

export const GET = withStaff<{ id: string }>(async ({ req, params }) => {
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  const sp = req.nextUrl.searchParams;
  const page = await listReceipts(receiver.id, {
    limit: intParam(sp, 'limit', 1, 200) ?? 50,
    before: intParam(sp, 'before', 1, Number.MAX_SAFE_INTEGER),
    q: sp.get('q')?.slice(0, 200) || undefined,
  });
  return json(
    { results: page.receipts.map(receiptJson), ...(page.nextBefore ? { nextBefore: page.nextBefore } : {}) },
    { headers: { 'cache-control': 'no-store' } },
  );
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
