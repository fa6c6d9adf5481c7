// Service: EXT POST /v1/webhooks/{id}/messages/{messageId}/resend — deliver now (manual); 202 with the attempt.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { resendMessage } from '@/lib/service/attempts/resend-message';

export const POST = withAccount<{ id: string; messageId: string }>(async ({ params, account }) => {
  return json(await resendMessage(account.accountId, params.id, params.messageId), { status: 202 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
