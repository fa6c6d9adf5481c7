import 'server-only';
import { notFound } from 'next/navigation';
import { receiptCurl } from '../export/request-curl';
import { forwardsOf } from '../forward/forwards';
import { hasRole } from '../staff/roles';
import { staffView } from '../staff/staff-view';
import { getReceiver } from './get-receiver';
import { receiptForensics } from './receipt-forensics';
import { getReceipt } from './receipts';
import { receiptSuspicion } from './receipt-suspicion';

// The receipt page's view: the stored request, its signature forensics (checked on the stored
// bytes and secrets), the webhook that sent it, its forwards, and what staff may do with it. A viewer
// gets it masked (staffView: fingerprints, `a•••@example.org`) and no cURL command.

export const loadReceiptView = staffView(async ({ staff, api }, id: string) => {
  const receipt = /^\d{1,15}$/.test(id) ? await getReceipt(Number(id)) : null;
  const receiver = receipt ? await getReceiver(receipt.receiverId) : null;
  if (!receipt || !receiver) notFound();
  const { webhook, forensics, sentBody, attemptCount } = await receiptForensics(staff.environment, api, receipt, receiver);
  const webhookFingerprint = forensics.webhookSecret?.fingerprint ?? null;
  // Operators and admins forward and copy; a viewer sees the forwards (masked) and no command.
  const operator = hasRole(staff.role, 'operator');
  return {
    receipt,
    receiver: { id: receiver.id, name: receiver.name },
    webhook,
    forensics,
    sentBody,
    webhookFingerprint,
    holdsWebhookSecret: !!webhookFingerprint && forensics.receiverSecrets.some((s) => s.fingerprint === webhookFingerprint),
    operator,
    curl: operator ? receiptCurl(receipt) : null,
    forwards: await forwardsOf([receipt.id]),
    /** Set when this is a suspicious arrival: the verified arrival of its message it imitates. */
    suspicion: await receiptSuspicion(receipt, attemptCount),
    /** The body is there to forward (or there was none). */
    bodyKept: receipt.body !== null || receipt.bodySize === 0,
    /** A re-signed forward needs a secret of the receiver. */
    canResign: receiver.secrets.length > 0,
  };
});
