// Service: GET /v1/webhooks/{id}/messages/{messageId}/attempts/{attemptId} — one attempt with its response body.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getAttempt } from '@/lib/service/attempts/get-attempt';

export const GET = withAccount<{ id: string; messageId: string; attemptId: string }>(async ({ params, account }) => {
  return json(await getAttempt(account.accountId, params.id, params.attemptId, params.messageId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
