// Service: GET /v1/webhooks/{id}/attempts/{attemptId} — one attempt with its response body (by attempt id alone).
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getAttempt } from '@/lib/service/attempts/get-attempt';

export const GET = withAccount<{ id: string; attemptId: string }>(async ({ params, account }) => {
  return json(await getAttempt(account.accountId, params.id, params.attemptId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
