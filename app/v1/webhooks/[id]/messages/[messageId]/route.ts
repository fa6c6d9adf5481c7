// Service: GET /v1/webhooks/{id}/messages/{messageId} — one message with its payload.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getMessage } from '@/lib/service/messages/get-message';

export const GET = withAccount<{ id: string; messageId: string }>(async ({ params, account }) => {
  return json(await getMessage(account.accountId, params.id, params.messageId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
