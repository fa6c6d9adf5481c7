// Service: EXT GET | PATCH | DELETE /v1/webhooks/{id} — read, change or (soft) delete one webhook.
import { NextResponse } from 'next/server';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { deleteWebhook } from '@/lib/service/webhooks/delete-webhook';
import { getWebhook } from '@/lib/service/webhooks/get-webhook';
import { ZUpdateWebhook } from '@/lib/service/webhooks/schemas';
import { updateWebhook } from '@/lib/service/webhooks/update-webhook';
import { webhookToJson } from '@/lib/service/webhooks/webhook-json';

type TParams = { id: string };

export const GET = withAccount<TParams>(async ({ params, account }) => {
  return json(webhookToJson(await getWebhook(account.accountId, params.id)));
});

export const PATCH = withAccount<TParams>(async ({ req, params, account }) => {
  const input = await readJson(req, ZUpdateWebhook);
  return json(webhookToJson(await updateWebhook(account.accountId, params.id, input)));
});

export const DELETE = withAccount<TParams>(async ({ params, account }) => {
  await deleteWebhook(account.accountId, params.id);
  return new NextResponse(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethods(['GET', 'PATCH', 'DELETE']);
