// Service: POST /v1/nonprofits — register a nonprofit (201 on first and repeated creation).
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { createNonprofit } from '@/lib/service/nonprofits/create-nonprofit';
import { nonprofitToJson } from '@/lib/service/nonprofits/nonprofit-json';
import { ZCreateNonprofit } from '@/lib/service/nonprofits/schemas';

export const POST = withAccount(
  async ({ req }) => {
    const nonprofit = await createNonprofit(await readJson(req, ZCreateNonprofit));
    return json(nonprofitToJson(nonprofit), { status: 201, headers: { location: `/v1/nonprofit/${nonprofit.ein}` } });
  },
  { scope: 'create:nonprofits' },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
