// Console: one receiver as JSON, and its settings (PATCH: name, secrets, responseStatus, responseBody, responseDelayMs;
// the answer adds `warnings`: the webhooks delivering here whose secret the saved ones do not match, by fingerprint).
import { z } from 'zod';
import { readJson } from '@/lib/http/body';
import { ApiError } from '@/lib/http/errors';
import { json, otherMethods } from '@/lib/http/respond';
import { getReceiver, receiverJson, updateReceiver } from '@/lib/console/receivers';
import { withStaff } from '@/lib/console/staff/with-staff';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { receiverChanges } from '@/lib/console/audit/receiver-changes';
import { getDb } from '@/lib/db/client';
import { connectApi } from '@/lib/console/connect-api';
import { secretWarnings } from '@/app/(console)/receivers/[id]/secret-warnings';

export const dynamic = 'force-dynamic';

const ZPatch = z.object({
  name: z.string().optional(),
  secrets: z.array(z.string()).optional(),
  responseStatus: z.number().optional(),
  responseBody: z.string().optional(),
  responseDelayMs: z.number().optional(),
});

export const GET = withStaff<{ id: string }>(async ({ params }) => {
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  return json(receiverJson(receiver));
});

export const PATCH = withStaff<{ id: string }>({ role: 'operator' }, async ({ req, params, staff }) => {
  const patch = await readJson(req, ZPatch);
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', 'No such receiver.');
  let updated;
  try {
    updated = await updateReceiver(receiver.id, patch);
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.update', target: [receiver.id], result: auditResultOf(err) });
    throw err;
  }
  await recordAudit(await getDb(), { actor: staff, action: 'receiver.update', target: [receiver.id], result: 'ok', detail: receiverChanges(receiver, patch) });
  const warnings = patch.secrets === undefined ? [] : await secretWarnings(staff.environment, connectApi(staff.environment), updated);
  return json({ ...receiverJson(updated), warnings });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(['GET', 'PATCH']);
