// Console: GET /api/tokens — the caller's own personal access tokens (never the tokens); POST {name,
// expiresInDays 1–365 (30)} → {id, token, …}: a token for `npm run listen`, shown in this answer only (operators and admins).
import { createToken, listTokens, ZCreateToken } from '@/lib/console/staff/personal-tokens';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff({ role: 'operator' }, async ({ staff }) =>
  json({ results: await listTokens(staff.userId) }, { headers: { 'cache-control': 'no-store' } }),
);

export const POST = withStaff({ role: 'operator' }, async ({ req, staff }) => {
  const input = await readJson(req, ZCreateToken);
  return json(await createToken(staff, input), { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
