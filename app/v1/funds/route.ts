// Service: EXT GET /v1/funds — the donor-advised funds a grant's fundId may name, paged (any valid token).
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { listFunds } from '@/lib/service/funds/list-funds';

export const GET = withAccount(async ({ req }) => json(await listFunds(await pageParams(req.nextUrl.searchParams, pageScope.funds()))));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
