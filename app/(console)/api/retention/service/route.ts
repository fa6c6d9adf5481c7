// Console: GET /api/retention/service (viewer) — the service's retention for the account this console is
// connected to (EXT GET /v1/retention): each value, and whether it is the account's own or the service's
// default. PATCH (admin) — {MESSAGE_PAYLOAD_RETENTION?, MESSAGE_RETENTION?}: `30d`, or null for the
// service's default; sent to the service (EXT PATCH /v1/retention), audited (retention.service.update).
import { connectApi } from '@/lib/console/connect-api';
import { serviceRetention, updateServiceRetention } from '@/lib/console/retention/service-retention';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

const NO_STORE = { 'cache-control': 'no-store' };

export const GET = withStaff({ role: 'viewer' }, async ({ staff }) => json(await serviceRetention(connectApi(staff.environment)), { headers: NO_STORE }));

export const PATCH = withStaff({ role: 'admin' }, async ({ req, staff }) =>
  json(await updateServiceRetention(staff, connectApi(staff.environment), await readJson(req, z.unknown())), { headers: NO_STORE }),
);

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(['GET', 'PATCH']);
