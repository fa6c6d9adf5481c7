// Console: the receivers as JSON — list, and create ({name, slug?, secret?}). Secrets in full for admins only.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { listReceivers, receiverForRole, receiverJson } from '@/lib/console/receivers';
import { createReceiverAudited } from '@/lib/console/receivers/audited-receivers';
import { withStaff } from '@/lib/console/staff/with-staff';

export const dynamic = 'force-dynamic';

const ZCreate = z.object({ name: z.string(), slug: z.string().optional(), secret: z.string().optional() });

// Secrets whole for admins only; the others get their stand-ins (lib/console/receivers/secrets-for-role.ts).
export const GET = withStaff(async ({ staff }) => json({ results: (await listReceivers()).map((r) => receiverJson(receiverForRole(staff.role, r))) }));

export const POST = withStaff({ role: 'operator' }, async ({ req, staff }) => {
  const receiver = await createReceiverAudited(staff, await readJson(req, ZCreate));
  return json(receiverJson(receiverForRole(staff.role, receiver)), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
