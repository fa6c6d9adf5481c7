import { GRANT_CURRENCY } from './reconciliation-columns';
import { grantMoney } from './grant-money';
import type { TReconRow } from './reconcile-day';

// A day's counts as its rows go by: each nonprofit's grants and money (each grant once, however
// many webhooks it has rows for) and, per webhook, how many were sent, delivered (the service's
// word), received, verified and had a suspicious arrival (this console's receivers; null for a
// webhook whose endpoint this console cannot see). Money in cents.

export type TWebhookCount = { webhookId: string; sent: number; delivered: number; received: number | null; verified: number | null; suspicious: number | null };
type TNonprofitCount = {
  nonprofitId: string;
  ein: string;
  name: string;
  grants: number;
  amount: number;
  fee: number;
  net: number;
  webhooks: Map<string, TWebhookCount>;
};
export type TDayCounts = { byNonprofit: Map<string, TNonprofitCount>; seen: Set<string> };

export const newDayCounts = (): TDayCounts => ({ byNonprofit: new Map(), seen: new Set() });

export function countRow(counts: TDayCounts, row: TReconRow): void {
  const g = row.grant;
  let np = counts.byNonprofit.get(g.nonprofitId);
  if (!np)
    counts.byNonprofit.set(
      g.nonprofitId,
      (np = { nonprofitId: g.nonprofitId, ein: g.ein, name: g.nonprofitName, grants: 0, amount: 0, fee: 0, net: 0, webhooks: new Map() }),
    );
  if (!counts.seen.has(g.grantId)) {
    counts.seen.add(g.grantId);
    const money = grantMoney(g);
    np.grants++;
    np.amount += money.amount;
    np.fee += money.fee;
    np.net += money.net;
  }
  if (row.webhookId === null) return;
  let w = np.webhooks.get(row.webhookId);
  if (!w)
    np.webhooks.set(
      row.webhookId,
      (w = {
        webhookId: row.webhookId,
        sent: 0,
        delivered: 0,
        received: row.observed ? 0 : null,
        verified: row.observed ? 0 : null,
        suspicious: row.observed ? 0 : null,
      }),
    );
  if (row.delivery && row.delivery.attemptCount > 0) w.sent++;
  if (row.delivery?.status === 'success') w.delivered++;
  if (row.observed) {
    w.received = (w.received ?? 0) + (row.received > 0 ? 1 : 0);
    w.verified = (w.verified ?? 0) + (row.verified ? 1 : 0);
    w.suspicious = (w.suspicious ?? 0) + (row.suspicious > 0 ? 1 : 0);
  }
}

/** The nonprofits by name, each with its webhooks' counts. */
export function countedNonprofits(counts: TDayCounts) {
  return [...counts.byNonprofit.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || a.ein.localeCompare(b.ein))
    .map((n) => ({ ...n, webhooks: [...n.webhooks.values()] }));
}

/** The day's grants and money over its nonprofits. */
export function countedTotals(nonprofits: ReturnType<typeof countedNonprofits>) {
  return {
    grants: nonprofits.reduce((s, n) => s + n.grants, 0),
    amount: nonprofits.reduce((s, n) => s + n.amount, 0),
    fee: nonprofits.reduce((s, n) => s + n.fee, 0),
    net: nonprofits.reduce((s, n) => s + n.net, 0),
    currency: GRANT_CURRENCY,
  };
}
