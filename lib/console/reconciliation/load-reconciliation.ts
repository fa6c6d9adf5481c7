import type { ConnectApi } from '@/lib/console/connect-api/client';
import type { TReconciliation } from '@/lib/console/timeline/reconcile';
import { reconciliationBody } from './reconciliation-output';

// The reconciliation page's view: the JSON answer of GET /api/reconciliation, read whole (the page
// shows the counts and the first differences; the download has every row). No donor data in it.

export type TReconView = {
  date: string;
  timeZone: string;
  from: string;
  to: string;
  nonprofit: string | null;
  totals: { grants: number; amount: number; differences: number; suspicious: number };
  nonprofits: { nonprofitId: string; ein: string; name: string; grants: number; amount: number; webhooks: { webhookId: string; sent: number; delivered: number; received: number | null; verified: number | null; suspicious: number | null }[] }[];
  differences: { trackingId: string; grantId: string; nonprofitId: string; webhookId: string; state: TReconciliation }[];
  /** Grant × webhook pairs with copies that did not verify beside the verified delivery: no difference, listed apart. */
  suspicious: { trackingId: string; grantId: string; nonprofitId: string; webhookId: string; state: TReconciliation; arrivals: number }[];
};

export async function loadReconciliation(api: ConnectApi, q: { date: string; timeZone: string; nonprofit?: string }): Promise<TReconView> {
  const body = await reconciliationBody(api, { ...q, format: 'json', includeDonor: false });
  return JSON.parse(await new Response(body).text()) as TReconView;
}
