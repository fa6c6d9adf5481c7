'use server';

import { z } from 'zod';
import { staffApi } from '@/app/(console)/_lib/staff-api';
import { actionErrorInfo } from '@/app/(console)/_lib/errors';
import type { TActionResult } from '@/app/(console)/_lib/errors';
import { gapProgress, runRecoverGap, type TGapRuns } from '@/lib/console/recover/recover-gap';

// The webhook page's "Recover all" of an outage gap (lib/console/recover/recover-gap.ts: replay-missing
// + recover, audited) and its progress. Each action re-checks the staff session and role.

const ZWebhookId = z.string().min(1).max(200);
const ZRunIds = z.object({ replay: z.string().min(1).max(200).nullable(), recover: z.string().min(1).max(200).nullable() });
const invalid: TActionResult<never> = { ok: false, error: { message: 'Invalid request.' } };

export async function recoverGapAction(webhookId: string): Promise<TActionResult<TGapRuns>> {
  const { staff, api } = await staffApi('operator');
  if (!ZWebhookId.safeParse(webhookId).success) return invalid;
  try {
    const { replay, recover } = await runRecoverGap(staff, api, webhookId);
    const sent = (replay?.messages ?? 0) + (recover?.messages ?? 0);
    return { ok: true, data: { replay, recover }, notice: `${sent} message${sent === 1 ? '' : 's'} queued.` };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}

export async function gapProgressAction(webhookId: string, runIds: { replay: string | null; recover: string | null }): Promise<TActionResult<TGapRuns>> {
  const { api } = await staffApi('operator');
  const ids = ZRunIds.safeParse(runIds);
  if (!ZWebhookId.safeParse(webhookId).success || !ids.success) return invalid;
  try {
    return { ok: true, data: await gapProgress(api, webhookId, ids.data) };
  } catch (err) {
    return { ok: false, error: actionErrorInfo(err) };
  }
}
