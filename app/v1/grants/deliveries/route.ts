// Service: GET /v1/grants/deliveries?after&before&nonprofit — EXT: the account's grants made in a range, oldest first, as NDJSON, each with its message's delivery to every webhook.
import { otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { parseGrantDeliveryFilters, streamGrantDeliveries } from '@/lib/service/grants/stream-grant-deliveries';

export const GET = withAccount(
  async ({ req, account }) => {
    const filters = parseGrantDeliveryFilters(req.nextUrl.searchParams);
    return new Response(streamGrantDeliveries(account.accountId, filters), {
      headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' },
    });
  },
  { scope: 'read:grants' },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
