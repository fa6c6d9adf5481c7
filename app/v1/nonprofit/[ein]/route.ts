// Service: GET /v1/nonprofit/{ein} — a registered nonprofit by EIN.
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { getNonprofitByEin } from '@/lib/service/nonprofits/get-nonprofit';
import { nonprofitToJson } from '@/lib/service/nonprofits/nonprofit-json';

export const GET = withAccount<{ ein: string }>(async ({ params }) => json(nonprofitToJson(await getNonprofitByEin(params.ein))), { scope: 'read:nonprofits' });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
