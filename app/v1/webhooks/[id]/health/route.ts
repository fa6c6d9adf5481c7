// Service: EXT GET /v1/webhooks/{id}/health?window=1h|24h|7d — attempts, success rate, failure streak, disabled state.
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getWebhookHealth, ZHealthQuery } from '@/lib/service/webhooks/get-webhook-health';

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const { window } = parseQuery(req.nextUrl.searchParams, ZHealthQuery);
  return json(await getWebhookHealth(account.accountId, params.id, window));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
