// Service: EXT GET /v1/grants/{id} — one grant of the token's account (the public SDK's grants.get; the Location of a create).
// The API key is optional: when sent it must be valid and of this account (else 403), and narrows the lookup to its Connect.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getGrant } from '@/lib/service/grants/find-grant';
import { connectOfApiKey, hasApiKey } from '@/lib/service/auth/with-api-key';

export const GET = withAccount<{ id: string }>(
  async ({ req, params, account }) => {
    const connect = hasApiKey(req) ? await connectOfApiKey(req, account.accountId) : null;
    return json(await getGrant({ accountId: account.accountId, connectId: connect?.id }, params.id));
  },
  { scope: 'read:grants' },
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
