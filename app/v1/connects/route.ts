// Service: POST /v1/connects?nonprofit=<id> — the account's Connect for a nonprofit (201, one per nonprofit).
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { connectToJson } from '@/lib/service/connects/connect-json';
import { createConnect, parseNonprofitParam } from '@/lib/service/connects/create-connect';
import { ZCreateConnect } from '@/lib/service/connects/schemas';

export const POST = withAccount(
  async ({ req, account }) => {
    const nonprofitId = parseNonprofitParam(req.nextUrl.searchParams.get('nonprofit'));
    const input = await readJson(req, ZCreateConnect, { optional: true });
    const connect = await createConnect(account.accountId, nonprofitId, input);
    return json(connectToJson(connect), { status: 201, headers: { location: `/v1/connects/${connect.id}` } });
  },
  { scope: 'create:connects' },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
