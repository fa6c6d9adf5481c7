// Console: GET /api/shares?query= — a case's live share links (never their tokens); POST {query, ticket, expiresInHours 1–168 (72)}
// → {id, url, expiresAt}: a read-only link to the case for someone without a login (operators; the url is in this answer only).
import { createShare, liveShares, ZCreateShare } from '@/lib/console/share/shares';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff(async ({ req }) => {
  const query = req.nextUrl.searchParams.get('query')?.trim();
  if (!query) throw new ApiError('bad_request', 'query: name the case (its search term).');
  return json({ results: await liveShares(query.slice(0, 254)) }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = withStaff({ role: 'operator' }, async ({ req, staff }) => {
  const input = await readJson(req, ZCreateShare);
  return json(await createShare(staff, input), { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
