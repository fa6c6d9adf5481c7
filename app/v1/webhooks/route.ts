// Service: POST /v1/webhooks (subscribe an endpoint) and EXT GET /v1/webhooks (the account's webhooks, paged).
import { readJson } from '@/lib/http/body';
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { createWebhook } from '@/lib/service/webhooks/create-webhook';
import { listWebhooks } from '@/lib/service/webhooks/list-webhooks';
import { ZCreateWebhook } from '@/lib/service/webhooks/schemas';
import { webhookToJson } from '@/lib/service/webhooks/webhook-json';

export const POST = withAccount(async ({ req, account }) => {
  const input = await readJson(req, ZCreateWebhook);
  const webhook = await createWebhook(account.accountId, input);
  return json(webhookToJson(webhook), { status: 201, headers: { location: `/v1/webhooks/${webhook.id}` } });
});

export const GET = withAccount(async ({ req, account }) => {
  const page = await pageParams(req.nextUrl.searchParams, pageScope.webhooks(account.accountId));
  return json(await listWebhooks(account.accountId, page));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
