// Console: GET /api/receivers/{id}/export?includeDonor=1 — the receiver's receipts as a HAR 1.2 download.
import { recordAudit } from '@/lib/console/audit/record-audit';
import { exportReceiptsHar } from '@/lib/console/export/export-receipts-har';
import { attachment, parseIncludeDonor } from '@/lib/console/export/export-query';
import { getReceiver } from '@/lib/console/receivers';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>(async ({ req, params, staff }) => {
  const includeDonor = parseIncludeDonor(req.nextUrl.searchParams);
  if (includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  await recordAudit(await getDb(), { actor: staff, action: 'export', target: [receiver.id], result: 'ok', detail: { format: 'har', includeDonor } });
  return new Response(exportReceiptsHar(receiver, includeDonor), {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': attachment(`receiver-${receiver.slug}.har`), 'cache-control': 'no-store' },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
