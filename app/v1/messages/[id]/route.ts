// Service: EXT GET /v1/messages/{id} — one message of the account by msg_ id or evt_ event id, with its payload and deliveries (withAttempts=true: each with its attempts).
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getAccountMessage } from '@/lib/service/messages/get-account-message';
import { ZAccountMessageQuery } from '@/lib/service/messages/schemas';
import { parseQuery } from '@/lib/http/query';

export const GET = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const { withAttempts } = parseQuery(req.nextUrl.searchParams, ZAccountMessageQuery);
  return json(await getAccountMessage(account.accountId, params.id, { withAttempts }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
