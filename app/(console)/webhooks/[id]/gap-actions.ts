'use server';

import { z } from 'zod';
import { gapProgress, runRecoverGap, type TGapRuns } from '@/lib/console/recover/recover-gap';
import { staffAction } from '@/lib/console/staff/staff-action';
import { plural } from '@/lib/console/format';

// The webhook page's "Recover all" of an outage gap (lib/console/recover/recover-gap.ts: replay-missing
// + recover over the counted windows, audited there as webhook.recover-all) and its progress.
// staffAction re-checks the session and the operator role of each.

const ZWebhookId = z.string().min(1).max(200);
const ZRunId = z.string().min(1).max(200).nullable();

export const recoverGapAction = staffAction(
  { role: 'operator', input: z.tuple([ZWebhookId]) },
  async ({ staff, api, input: [webhookId] }): Promise<{ data: TGapRuns; notice: string }> => {
    const { replay, recover } = await runRecoverGap(staff, api, webhookId);
    const sent = (replay?.messages ?? 0) + (recover?.messages ?? 0);
    return { data: { replay, recover }, notice: `${plural(sent, 'message')} queued.` };
  },
);

export const gapProgressAction = staffAction(
  { role: 'operator', input: z.tuple([ZWebhookId, z.object({ replay: ZRunId, recover: ZRunId })]) },
  async ({ api, input: [webhookId, ids] }): Promise<{ data: TGapRuns }> => ({ data: await gapProgress(api, webhookId, ids) }),
);
