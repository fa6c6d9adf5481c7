'use server';

import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { getReceipt, getReceiver, updateReceiver } from '@/lib/console/receivers';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/action-result';

const ZInput = z.object({ receiptId: z.number().int().positive(), webhookId: z.string().min(1).max(200) });

/** The receiver takes the webhook's current secret; its own current one stays as the previous (rotation). */
export async function adoptWebhookSecretAction(receiptId: number, webhookId: string): Promise<TActionResult> {
  const { api } = await staffApi();
  const input = ZInput.safeParse({ receiptId, webhookId });
  if (!input.success) return { ok: false, error: { message: 'Invalid request.' } };
  try {
    const receipt = await getReceipt(input.data.receiptId);
    const receiver = receipt ? await getReceiver(receipt.receiverId) : null;
    if (!receipt || !receiver) return { ok: false, error: { message: 'No such receipt.' } };
    const { key } = await api.getWebhookSecret(input.data.webhookId);
    await updateReceiver(receiver.id, { secrets: [key, ...receiver.secrets.filter((s) => s !== key)].slice(0, 2) });
    revalidatePath(`/receipts/${receipt.id}`);
    return { ok: true, notice: 'The receiver now holds the webhook’s secret; new deliveries verify with it.' };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
