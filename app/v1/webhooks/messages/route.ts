// Service: EXT GET /v1/webhooks/messages?state=failed|retrying&after=&before= — the account's troubled (message, webhook) pairs across its webhooks, newest first, paged.
import { pageParams, pageScope } from '@/lib/service/paging';
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listTroubledMessages, ZTroubledQuery } from '@/lib/service/messages/troubled-messages';

export const GET = withAccount(async ({ req, account }) => {
  const query = parseQuery(req.nextUrl.searchParams, ZTroubledQuery);
  const page = await pageParams(req.nextUrl.searchParams, pageScope.troubledMessages(account.accountId, query.state));
  return json(await listTroubledMessages(account.accountId, page, query));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
