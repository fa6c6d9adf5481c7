// Console: GET /api/retention (viewer) — the console's retention purge: settings (with where each comes
// from), what it purged, what is due. PATCH (admin) — change the console's retention settings
// ({RECEIPT_BODY_RETENTION?, RECEIPT_RETENTION?, RETENTION_HOLD_MAX?}: `30d`, or null for the
// environment's value); audited. The service's for this account: /api/retention/service.
import { retentionStatus } from '@/lib/console/retention/retention-status';
import { z } from 'zod';
import { parseRetentionPatch, updateRetention } from '@/lib/console/retention/retention-settings';
import { withStaff } from '@/lib/console/staff/with-staff';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';

export const dynamic = 'force-dynamic';

export const GET = withStaff({ role: 'viewer' }, async () => json(await retentionStatus(), { headers: { 'cache-control': 'no-store' } }));

export const PATCH = withStaff({ role: 'admin', audit: 'retention.update' }, async ({ req, audit }) => {
  const patch = parseRetentionPatch(await readJson(req, z.unknown()));
  audit({ target: Object.keys(patch) });
  const { settings, changed } = await updateRetention(patch);
  audit({ target: Object.keys(changed), detail: changed });
  return json({ settings }, { headers: { 'cache-control': 'no-store' } });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(['GET', 'PATCH']);
