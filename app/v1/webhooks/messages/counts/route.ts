// Service: EXT GET /v1/webhooks/messages/counts?after=&before=&cap= — each webhook's failed and retrying messages, exact up to cap.
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { countTroubledMessages, ZTroubledCountsQuery } from '@/lib/service/messages/troubled-messages';

export const GET = withAccount(async ({ req, account }) => {
  return json(await countTroubledMessages(account.accountId, parseQuery(req.nextUrl.searchParams, ZTroubledCountsQuery)));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
