import 'server-only';
import { notFound } from 'next/navigation';
import { loadOrError } from '../connect-api/load-or-error';
import { messageCurls } from '../export/request-curl';
import { getReceipts } from '../receivers';
import { hasRole } from '../staff/roles';
import { staffView } from '../staff/staff-view';
import { loadMessageDetail } from './message-detail';

// The message page's view: the message with its attempts and receipts (an API failure as an
// inline error, a 404 as the not-found page), the raw requests of the receipts at this webhook's
// receiver, and for operators "Copy as cURL" of each attempt and receipt. A viewer gets it masked.

export const loadMessageView = staffView(async ({ staff, api }, webhookId: string, messageId: string) => {
  const found = await loadOrError(() => loadMessageDetail(staff.environment, api, webhookId, messageId));
  if (found.error?.status === 404) notFound();
  if (!found.data) return { detail: null, error: found.error } as const;
  const raw = await getReceipts(found.data.message.receipts.map((r) => r.id));
  const curls = hasRole(staff.role, 'operator') ? await messageCurls(api, found.data, raw) : null;
  return { detail: found.data, raw, curls } as const;
});
