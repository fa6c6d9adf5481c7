import 'server-only';
import { ID_PREFIX } from '@/lib/constants';
import { ConnectApiError, type ConnectApi } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { prefixedId } from '@/lib/ids';
import { mapLimit } from '../map-limit';
import { receiptKey, receiptSummariesAt } from '../receivers/receipts-by-message';
import type { TEnvironmentName } from '../staff/session';
import { findResendable, type TResendable } from './find-resendable';
import type { TResendWindow } from './recover-window';

// A re-send run: every message findResendable() lists is re-sent once through the API's resend
// (EXT POST …/messages/{id}/resend, which answers after the attempt), a few at a time, and the
// run reports what the service saw and what this console's receiver verified. The caller audits it.

const RESEND_CONCURRENCY = 4;
/** A run none of whose first this-many re-sends the receiver verified stops: the receiver is not fixed yet. */
export const RESEND_GIVE_UP_AFTER = 8;

export type TResendRun = Omit<TResendable, 'messageIds'> & {
  id: string;
  /** How many messages the run set out to re-send (succeeded + failed + refused + skipped). */
  messages: number;
  /** Re-sent and answered 2xx. */
  succeeded: number;
  /** Re-sent and answered otherwise (or not at all). */
  failed: number;
  /** The API refused the resend (e.g. the message is gone) or did not answer; the first reason is in `error`. */
  refused: number;
  error: string | null;
  /** Not re-sent: the run stopped when the receiver verified none of its first RESEND_GIVE_UP_AFTER re-sends. */
  skipped: number;
  /** Re-sent, and the receiver verified that arrival and answered it 2xx. */
  verified: number;
  startedAt: string;
  finishedAt: string;
};

type TResendOutcome = 'succeeded' | 'failed' | 'skipped' | { refused: string };

async function resendOne(api: ConnectApi, webhookId: string, messageId: string): Promise<TResendOutcome> {
  try {
    const attempt = await api.post('/v1/webhooks/{id}/messages/{messageId}/resend', { params: { path: { id: webhookId, messageId } } });
    return attempt.status === 'success' ? 'succeeded' : 'failed';
  } catch (err) {
    // One message the API refused (gone, the webhook disabled meanwhile) or could not take does not stop the run.
    if (err instanceof ConnectApiError) return { refused: err.problem?.detail || err.message };
    throw err;
  }
}

/** How many of these messages' newest arrivals at the receiver verified and got a 2xx. */
async function countVerified(messageIds: string[], receiverId: string): Promise<number> {
  const byKey = await receiptSummariesAt(messageIds, [receiverId]);
  return messageIds.filter((id) => {
    const newest = byKey.get(receiptKey(id, receiverId))?.at(-1);
    return newest !== undefined && newest.verdict === 'valid' && newest.responseStatus >= 200 && newest.responseStatus <= 299;
  }).length;
}

export async function resendDelivered(envName: TEnvironmentName, api: ConnectApi, webhookId: string, window: TResendWindow): Promise<TResendRun> {
  const startedAt = new Date();
  const { messageIds, ...found } = await findResendable(envName, api, webhookId, window);
  if (found.disabled) throw new ApiError('conflict', 'This webhook is disabled; enable it before re-sending its messages.');
  const receiverId = found.receiver?.id ?? '';
  let tried = 0;
  let verified = 0;
  const outcomes = await mapLimit(messageIds, RESEND_CONCURRENCY, async (id): Promise<TResendOutcome> => {
    // A receiver that still verifies none of them (its secret not fixed yet, still failing) is not sent the rest.
    if (verified === 0 && tried >= RESEND_GIVE_UP_AFTER) return 'skipped';
    tried++;
    const outcome = await resendOne(api, webhookId, id);
    // The receiver stores an arrival before it answers: it is there to be read once the resend returns.
    if (outcome === 'succeeded' && (await countVerified([id], receiverId)) === 1) verified++;
    return outcome;
  });
  const refusals = outcomes.filter((o): o is { refused: string } => typeof o === 'object');
  return {
    ...found,
    id: prefixedId(ID_PREFIX.resendRun),
    messages: messageIds.length,
    succeeded: outcomes.filter((o) => o === 'succeeded').length,
    failed: outcomes.filter((o) => o === 'failed').length,
    refused: refusals.length,
    error: refusals[0]?.refused ?? null,
    skipped: outcomes.filter((o) => o === 'skipped').length,
    verified,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
  };
}
