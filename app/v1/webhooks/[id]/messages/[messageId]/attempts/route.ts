// Service: GET /v1/webhooks/{id}/messages/{messageId}/attempts — the delivery attempts of a message, paged.
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listAttempts } from '@/lib/service/attempts/list-attempts';

export const GET = withAccount<{ id: string; messageId: string }>(async ({ req, params, account }) => {
  const page = await pageParams(req.nextUrl.searchParams, pageScope.attempts(params.id, params.messageId));
  return json(await listAttempts(account.accountId, params.id, params.messageId, page));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
