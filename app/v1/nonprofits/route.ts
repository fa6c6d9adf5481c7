// Service: POST /v1/nonprofits — register a nonprofit (201 on first and repeated creation); EXT GET /v1/nonprofits — the registered nonprofits with the account's Connects, searchable, paged.
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { createNonprofit } from '@/lib/service/nonprofits/create-nonprofit';
import { listNonprofits } from '@/lib/service/nonprofits/list-nonprofits';
import { pageParams, pageScope } from '@/lib/service/paging';
import { nonprofitToJson } from '@/lib/service/nonprofits/nonprofit-json';
import { ZCreateNonprofit } from '@/lib/service/nonprofits/schemas';

export const POST = withAccount(
  async ({ req }) => {
    const nonprofit = await createNonprofit(await readJson(req, ZCreateNonprofit));
    return json(nonprofitToJson(nonprofit), { status: 201, headers: { location: `/v1/nonprofit/${nonprofit.ein}` } });
  },
  { scope: 'create:nonprofits' },
);

export const GET = withAccount(
  async ({ req, account }) => {
    const sp = req.nextUrl.searchParams;
    const q = (sp.get('q') ?? '').trim();
    const page = await pageParams(sp, pageScope.nonprofits(account.accountId, q));
    return json(await listNonprofits(account.accountId, q, page));
  },
  { scope: 'read:nonprofits' },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
