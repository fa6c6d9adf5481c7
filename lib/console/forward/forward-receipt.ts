import 'server-only';
import { z } from 'zod';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';
import { forwards } from '@/lib/db/schema/console';
import { ApiError } from '@/lib/http/errors';
import { getReceipt, getReceiver } from '../receivers';
import type { TStaff } from '../staff/session';
import { FORWARD_MODES, forwardRequest } from './forward-request';
import { checkForwardUrl } from './forward-target';
import { toForward, type TForward } from './forwards';
import { sendForward } from './send-forward';

// POST /api/receipts/{id}/forward {url, mode, secret?}: the receipt sent again to `url` (verbatim,
// or re-signed now under `secret` or else its receiver's current secret), the reply or the network
// error kept as a forward beside it, audited. A refused address, a body no longer kept or a bad
// field is a 4xx that sends nothing.

export const ZForwardBody = z.strictObject({
  url: z.string({ message: 'must be an absolute http(s) URL' }).min(1, 'must be an absolute http(s) URL').max(2048, 'must be at most 2048 characters'),
  mode: z.enum(FORWARD_MODES, { message: "must be 'verbatim' or 'resign'" }),
  secret: z
    .string({ message: 'must be a whsec_… secret' })
    .max(200, 'must be at most 200 characters')
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'must be a whsec_… secret')
    .optional(),
});
export type TForwardBody = z.output<typeof ZForwardBody>;

const badUrl = (message: string) => new ApiError('bad_request', `url ${message}`, { errors: [{ path: 'url', message }] });

async function forward(staff: TStaff, receiptId: number, input: TForwardBody): Promise<TForward> {
  const receipt = await getReceipt(receiptId);
  const receiver = receipt ? await getReceiver(receipt.receiverId) : null;
  if (!receipt || !receiver) throw new ApiError('not_found', 'No such receipt.');
  if (receipt.body === null && receipt.bodySize > 0) {
    const why = receipt.bodyGone?.note ?? (receipt.oversize ? 'it was over the size limit, so only its metadata was stored' : 'it is not stored');
    throw new ApiError('conflict', `This receipt's body cannot be forwarded: ${why}.`);
  }
  const check = await checkForwardUrl(input.url);
  if (!check.ok && check.kind !== 'unresolved') throw badUrl(check.reason);
  const secret = input.mode === 'resign' ? (input.secret ?? receiver.secrets[0]) : undefined;
  if (input.mode === 'resign' && !secret) {
    throw new ApiError('bad_request', 'secret is required: the receiver holds no secret to re-sign with.', {
      errors: [{ path: 'secret', message: 'is required (the receiver holds none)' }],
    });
  }
  const at = new Date();
  const req = forwardRequest(receipt, input.mode, { secret, at });
  // A name that does not resolve is the reply's network error, as a delivery's would be.
  const target = check.ok ? check.url : new URL(input.url);
  const reply = await sendForward(target, req);
  if (reply.refused) throw badUrl(`is refused: ${reply.refused}`);
  const db = await getDb();
  const [row] = await db
    .insert(forwards)
    .values({
      receiptId: receipt.id,
      at,
      actorId: staff.userId,
      actor: staff.email,
      url: target.toString(),
      mode: input.mode,
      method: req.method,
      sentHeaders: req.headers,
      status: reply.status,
      responseHeaders: reply.headers,
      responseBody: reply.body,
      responseSize: reply.size,
      responseTruncated: reply.truncated,
      elapsedMs: reply.elapsedMs,
      error: reply.error,
    })
    .returning();
  return toForward(row);
}

/** Forwards one receipt and records it; audited whatever the outcome (`receipt.forward`). */
export async function forwardReceipt(staff: TStaff, receiptId: number, input: TForwardBody): Promise<TForward> {
  const detail = {
    mode: input.mode,
    url: input.url.slice(0, 200),
    signedWith: input.mode === 'verbatim' ? 'stored signature' : input.secret ? 'a given secret' : 'the receiver’s secret',
  };
  try {
    const result = await forward(staff, receiptId, input);
    await recordAudit({
      actor: staff,
      action: 'receipt.forward',
      target: [String(receiptId)],
      result: 'ok',
      detail: { ...detail, forward: result.id, status: result.status, elapsedMs: result.elapsedMs },
    });
    return result;
  } catch (err) {
    await recordAudit({ actor: staff, action: 'receipt.forward', target: [String(receiptId)], result: auditResultOf(err), detail });
    throw err;
  }
}
