// Service: GET /v1/webhooks/{id}/messages/stream — EXT: the webhook's messages (filters status, eventType, before, after) as NDJSON, each with its payload and attempts.
import { otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { parseStreamFilters, streamMessages } from '@/lib/service/messages/stream-messages';

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const filters = parseStreamFilters(req.nextUrl.searchParams);
  const body = await streamMessages(account.accountId, params.id, filters);
  return new Response(body, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
