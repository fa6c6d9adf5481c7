// Service: GET /v1/connects/{id} — the account's Connect, with its API key.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { connectToJson } from '@/lib/service/connects/connect-json';
import { getConnect } from '@/lib/service/connects/get-connect';

export const GET = withAccount<{ id: string }>(
  async ({ params, account }) => json(connectToJson(await getConnect(account.accountId, params.id), { withApiKey: true })),
  { scope: 'read:connects' },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
