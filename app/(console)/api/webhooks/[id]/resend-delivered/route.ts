// GET /api/webhooks/{id}/resend-delivered?since=&until= — the messages the service counts as delivered
// whose arrival at this console's receiver failed verification or got an error answer (the preview);
// POST {since, until?} — re-send each once through the API, in one run (audited).
import { connectApi } from '@/lib/console/connect-api';
import { runResendDelivered } from '@/lib/console/recover/audited-runs';
import { findResendable } from '@/lib/console/recover/find-resendable';
import { parseResendQuery, ZResendBody } from '@/lib/console/recover/recover-window';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const window = parseResendQuery(req.nextUrl.searchParams);
  const found = await findResendable(staff.environment, connectApi(staff.environment), params.id, window);
  return json({ ...found, messages: found.messageIds.length }, { headers: { 'cache-control': 'no-store' } });
});

export const POST = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const window = await readJson(req, ZResendBody);
  return json(await runResendDelivered(staff, connectApi(staff.environment), params.id, window), { headers: { 'cache-control': 'no-store' } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
