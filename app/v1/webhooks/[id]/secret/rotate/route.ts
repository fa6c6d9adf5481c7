// Service: EXT POST /v1/webhooks/{id}/secret/rotate — a new secret; the old one keeps signing for 24 h.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { rotateWebhookSecret } from '@/lib/service/webhooks/webhook-secrets';

export const POST = withAccount<{ id: string }>(async ({ params, account }) => {
  return json(await rotateWebhookSecret(account.accountId, params.id));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
