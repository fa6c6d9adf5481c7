// Service: EXT GET /v1/messages/{id} — one message of the account by msg_ id or evt_ event id, with its payload and deliveries.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getAccountMessage } from '@/lib/service/messages/get-account-message';

export const GET = withAccount<{ id: string }>(async ({ params, account }) => json(await getAccountMessage(account.accountId, params.id)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
