// Service: EXT GET /v1/webhooks/{id}/recover/{runId} — a recover run and its progress.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getRecoverRun } from '@/lib/service/recover/recover-messages';

export const GET = withAccount<{ id: string; runId: string }>(async ({ params, account }) => {
  return json(await getRecoverRun(account.accountId, params.id, params.runId));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
