// Service: EXT POST /v1/webhooks/{id}/replay-missing {since, until?} — send the window's messages the webhook never got
// (202 with the run); GET ?since=&until= — how many a replay would send now (the preview).
import { readJson } from '@/lib/http/body';
import { parseQuery } from '@/lib/http/query';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { countMissing, replayMissing } from '@/lib/service/recover/replay-missing';
import { toRecoverWindow, ZRecoverBody, ZRecoverQuery } from '@/lib/service/recover/recover-window';

export const POST = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const window = await readJson(req, ZRecoverBody);
  const { run } = await replayMissing(account.accountId, params.id, window, account.clientId);
  return json(run, { status: 202, headers: { location: `/v1/webhooks/${params.id}/replay-missing/${run.id}` } });
});

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const window = toRecoverWindow(parseQuery(req.nextUrl.searchParams, ZRecoverQuery));
  return json(await countMissing(account.accountId, params.id, window));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
