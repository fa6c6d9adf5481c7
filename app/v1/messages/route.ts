// Service: EXT GET /v1/messages — the account's messages, newest first, paged (filters tag, eventType, before, after).
import { pageParams, pageScope } from '@/lib/service/paging';
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listAccountMessages } from '@/lib/service/messages/list-account-messages';
import { ZAccountMessageFilters } from '@/lib/service/messages/schemas';

export const GET = withAccount(async ({ req, account }) => {
  const page = await pageParams(req.nextUrl.searchParams, pageScope.accountMessages(account.accountId));
  const filters = parseQuery(req.nextUrl.searchParams, ZAccountMessageFilters);
  return json(await listAccountMessages(account.accountId, page, filters));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
