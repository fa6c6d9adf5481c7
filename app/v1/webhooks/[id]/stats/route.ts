// Service: EXT GET /v1/webhooks/{id}/stats?window=1h|24h|7d — the webhook's health: attempts, success rate, latency, backlog, streak, buckets.
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getWebhookStats } from '@/lib/service/stats/get-webhook-stats';
import { ZStatsQuery } from '@/lib/service/stats/schemas';

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const { window } = parseQuery(req.nextUrl.searchParams, ZStatsQuery);
  return json(await getWebhookStats(account.accountId, params.id, window));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
