// Console: one receiver as JSON, and its settings (PATCH: name, secrets, responseStatus, responseBody, responseDelayMs;
// the answer adds `warnings`: the webhooks delivering here whose secret the saved ones do not match, by fingerprint).
// Secrets in full for admins only; the others see stand-ins `[secret 1a2b3c4d…]`, and one sent back keeps its secret.
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceiver, receiverForRole, receiverJson, resolveSecretStandIns } from '@/lib/console/receivers';
import { requireReceiver, updateReceiverAudited } from '@/lib/console/receivers/audited-receivers';
import { secretWarnings } from '@/lib/console/receivers/secret-warnings';
import { withStaff } from '@/lib/console/staff/with-staff';
import { connectApi } from '@/lib/console/connect-api';

export const dynamic = 'force-dynamic';

const ZPatch = z.object({
  name: z.string().optional(),
  secrets: z.array(z.string()).optional(),
  responseStatus: z.number().optional(),
  responseBody: z.string().optional(),
  responseDelayMs: z.number().optional(),
});

export const GET = withStaff<{ id: string }>(async ({ params, staff }) => {
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  return json(receiverJson(receiverForRole(staff.role, receiver)));
});

export const PATCH = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const input = await readJson(req, ZPatch);
  const receiver = await requireReceiver(params.id);
  // A stand-in sent back (what an operator was shown) keeps the secret it stands for.
  const patch = input.secrets === undefined ? input : { ...input, secrets: resolveSecretStandIns(input.secrets, receiver.secrets) };
  const updated = await updateReceiverAudited(staff, receiver, patch);
  const warnings = patch.secrets === undefined ? [] : await secretWarnings(staff.environment, connectApi(staff.environment), updated);
  return json({ ...receiverJson(receiverForRole(staff.role, updated)), warnings });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(['GET', 'PATCH']);
