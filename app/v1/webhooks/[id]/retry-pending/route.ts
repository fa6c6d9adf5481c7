// Service: EXT POST /v1/webhooks/{id}/retry-pending {since, until?} — attempt now the window's messages waiting for a retry (202);
// GET ?since=&until= — how many wait (the preview).
import { readJson } from '@/lib/http/body';
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { toRecoverWindow, ZRecoverBody, ZRecoverQuery } from '@/lib/service/recover/recover-window';
import { countRetryPending, retryPendingNow } from '@/lib/service/recover/retry-pending';

export const POST = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const window = await readJson(req, ZRecoverBody);
  return json(await retryPendingNow(account.accountId, params.id, window), { status: 202 });
});

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const window = toRecoverWindow(parseQuery(req.nextUrl.searchParams, ZRecoverQuery));
  return json(await countRetryPending(account.accountId, params.id, window));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
