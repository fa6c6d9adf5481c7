// Service: EXT GET /v1/webhooks/{id}/secret — the current signing secret.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getWebhookSecret } from '@/lib/service/webhooks/webhook-secrets';

export const GET = withAccount<{ id: string }>(async ({ params, account }) => {
  return json(await getWebhookSecret(account.accountId, params.id));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
