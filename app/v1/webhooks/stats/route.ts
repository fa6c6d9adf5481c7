// Service: EXT GET /v1/webhooks/stats?window=1h|24h|7d&pageLimit=&pageToken= — every webhook's stats of one page of the account's webhooks, in one call.
import { pageParams, pageScope } from '@/lib/service/paging';
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listWebhookStats } from '@/lib/service/stats/get-webhook-stats';
import { ZStatsQuery } from '@/lib/service/stats/schemas';

export const GET = withAccount(async ({ req, account }) => {
  const params = req.nextUrl.searchParams;
  const { window } = parseQuery(new URLSearchParams(params.has('window') ? { window: params.get('window')! } : {}), ZStatsQuery);
  const page = await pageParams(params, pageScope.webhooks(account.accountId));
  return json(await listWebhookStats(account.accountId, window, page));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
