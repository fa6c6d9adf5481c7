'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { receiptForensics } from '@/lib/console/receivers/receipt-forensics';
import { getReceipt, getReceiver, updateReceiver } from '@/lib/console/receivers';
import { staffAction } from '@/lib/console/staff/staff-action';
import { ApiError } from '@/lib/http/errors';

const ZReceiptId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/**
 * The receiver of this receipt takes the secret of the webhook that sent it (worked out here, not
 * taken from the client); the receiver's own current secret stays as the previous one (rotation).
 */
export const adoptWebhookSecretAction = staffAction(
  { role: 'operator', input: z.tuple([ZReceiptId]), audit: { action: 'receiver.secret.adopt', detail: ([receiptId]) => ({ receipt: receiptId }) } },
  async ({ staff, api, input: [receiptId], audit }) => {
    const receipt = await getReceipt(receiptId);
    const receiver = receipt ? await getReceiver(receipt.receiverId) : null;
    if (!receipt || !receiver) throw new ApiError('not_found', 'No such receipt.');
    const { webhook } = await receiptForensics(staff.environment, api, receipt, receiver);
    if (!webhook) throw new ApiError('conflict', 'No webhook of this account sent this request, so there is no secret to take.');
    const { key } = await api.get('/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } });
    await updateReceiver(receiver.id, { secrets: [key, ...receiver.secrets.filter((s) => s !== key)].slice(0, 2) });
    audit({ target: [receiver.id, webhook.id] });
    revalidatePath(`/receipts/${receipt.id}`);
  },
);
