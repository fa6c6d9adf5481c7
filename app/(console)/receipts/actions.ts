'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { receiptForensics } from '@/lib/console/receivers/receipt-forensics';
import { getReceipt, getReceiver, updateReceiver } from '@/lib/console/receivers';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/errors';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import { getDb } from '@/lib/db/client';

const ZReceiptId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The receiver of this receipt takes the secret of the webhook that sent it (worked out here, not
 * taken from the client); the receiver's own current secret stays as the previous one (rotation).
 */
export async function adoptWebhookSecretAction(receiptId: number): Promise<TActionResult> {
  const { staff, api } = await staffApi('operator');
  const input = ZReceiptId.safeParse(receiptId);
  if (!input.success) return { ok: false, error: { message: 'Invalid request.' } };
  try {
    const receipt = await getReceipt(input.data);
    const receiver = receipt ? await getReceiver(receipt.receiverId) : null;
    if (!receipt || !receiver) return { ok: false, error: { message: 'No such receipt.' } };
    const { webhook } = await receiptForensics(staff.environment, api, receipt, receiver);
    if (!webhook) return { ok: false, error: { message: 'No webhook of this account sent this request, so there is no secret to take.' } };
    const { key } = await api.getWebhookSecret(webhook.id);
    await updateReceiver(receiver.id, { secrets: [key, ...receiver.secrets.filter((s) => s !== key)].slice(0, 2) });
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.secret.adopt', target: [receiver.id, webhook.id], result: 'ok', detail: { receipt: receipt.id } });
    revalidatePath(`/receipts/${receipt.id}`);
    return { ok: true };
  } catch (err) {
    await recordAudit(await getDb(), { actor: staff, action: 'receiver.secret.adopt', result: auditResultOf(err), detail: { receipt: input.data } });
    return { ok: false, error: actionErrorInfo(err) };
  }
}
