// Service: GET /v1/webhooks/{id}/messages — the webhook's messages, paged (EXT filters status, eventType, before, after).
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listMessages, parseMessageFilters } from '@/lib/service/messages/list-messages';

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const page = await pageParams(req.nextUrl.searchParams, pageScope.messages(params.id));
  const filters = parseMessageFilters(req.nextUrl.searchParams);
  return json(await listMessages(account.accountId, params.id, page, filters));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
