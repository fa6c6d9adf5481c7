// Console: GET /api/receivers/{id}/export?includeDonor=1 — the receiver's receipts as a HAR 1.2 download.
import { exportReceiptsHar } from '@/lib/console/export/export-receipts-har';
import { attachment, parseIncludeDonor } from '@/lib/console/export/export-query';
import { getReceiver } from '@/lib/console/receivers';
import { assertRole, withStaff } from '@/lib/console/staff/with-staff';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff<{ id: string }>({ audit: 'export' }, async ({ req, params, staff, audit, startReport }) => {
  const includeDonor = parseIncludeDonor(req.nextUrl.searchParams);
  audit({ target: [params.id], detail: { format: 'har', includeDonor } });
  if (includeDonor) assertRole(staff, 'operator'); // donor details leave only with an operator, audited
  startReport();
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  audit({ target: [receiver.id] });
  return new Response(exportReceiptsHar(receiver, includeDonor), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': attachment(`receiver-${receiver.slug}.har`),
      'cache-control': 'no-store',
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
