import 'server-only';
import { notFound } from 'next/navigation';
import { staffView } from '../staff/staff-view';
import { findDeliveringWebhooks } from './find-delivering-webhooks';
import { getReceiver } from './get-receiver';
import { ingestUrl } from './manage-receivers';
import { listReceipts } from './receipts';
import { receiptJson } from './receiver-json';
import { secretWarnings } from './secret-warnings';
import { receiverForRole } from './secrets-for-role';

// The receiver page's view: its settings, a page of its receipt log (searched), the webhooks
// delivering to it and those whose secret it lacks. Its secrets whole for admins only; a viewer
// gets it all masked (staffView).

export const RECEIPT_PAGE_SIZE = 50;

export const loadReceiverView = staffView(async ({ staff, api }, id: string, query: { q: string; before?: number }) => {
  const receiver = await getReceiver(id);
  if (!receiver) notFound();
  const readAt = new Date().toISOString();
  const [page, delivering] = await Promise.all([
    listReceipts(receiver.id, { limit: RECEIPT_PAGE_SIZE, before: query.before, q: query.q || undefined }),
    findDeliveringWebhooks(staff.environment, api, receiver),
  ]);
  const mismatches = await secretWarnings(staff.environment, api, receiver, delivering.webhooks);
  return {
    receiver: receiverForRole(staff.role, receiver), // secrets whole for admins, fingerprints for the others
    url: ingestUrl(receiver.slug),
    receipts: { results: page.receipts.map(receiptJson), ...(page.nextBefore ? { nextPageToken: String(page.nextBefore) } : {}) },
    readAt,
    delivering,
    mismatches,
  };
});
