import type { ConnectApi } from '@/lib/console/connect-api/client';
import { dayRange, localTime } from './day-range';
import { grantMoney, type TGrantMoney } from './grant-money';
import type { TReconciliation } from '@/lib/console/timeline/reconcile';
import { isDifference, openDay, type TReconRow } from './reconcile-day';
import { countedNonprofits, countedTotals, countRow, newDayCounts } from './reconciliation-counts';

// The reconciliation page's view: the day read whole (the totals and each nonprofit's counts need
// every grant), keeping only one page of its list — the grants with a difference, or all of them,
// GRANTS_PER_PAGE at a time in the day's order — and the first suspicious arrivals. The download
// has every row. No donor data in it.

export const GRANTS_PER_PAGE = 50;
const SHOWN_SUSPICIOUS = 200;

export type TReconListQuery = { date: string; timeZone: string; nonprofit?: string; show: 'differences' | 'all'; page: number };

/** One grant of the list: its money and, per webhook it should have reached, how that went. */
export type TReconGrant = {
  trackingId: string;
  grantId: string;
  createdAt: string;
  createdLocal: string;
  nonprofitName: string;
  ein: string;
  fundName: string;
  status: string;
  money: TGrantMoney;
  /** The webhooks it should have reached (0: none was subscribed) and how many the service delivered to. */
  webhooks: number;
  delivered: number;
  /** The webhooks where it differs, in the timeline's words. */
  differences: { webhookId: string; state: TReconciliation }[];
  /** The paused webhooks it waits for, not sent yet (no difference), each with why: "webhook paused since 14:02 UTC by ops@…". */
  waiting: { webhookId: string; why: string }[];
};

export type TReconView = {
  date: string;
  timeZone: string;
  from: string;
  to: string;
  nonprofit: string | null;
  totals: ReturnType<typeof countedTotals> & { differences: number; suspicious: number };
  nonprofits: ReturnType<typeof countedNonprofits>;
  list: { show: TReconListQuery['show']; page: number; pages: number; matching: number; differing: number; grants: TReconGrant[] };
  /** Grant × webhook pairs with copies that did not verify beside the verified delivery: no difference, listed apart (the first SHOWN_SUSPICIOUS). */
  suspicious: { trackingId: string; webhookId: string; arrivals: number }[];
  /** Per paused webhook, the day's grants waiting for it (not sent yet, no difference) and why. */
  waiting: { webhookId: string; why: string; grants: number }[];
};

function grantOf(rows: TReconRow[], timeZone: string): TReconGrant {
  const g = rows[0].grant;
  const hooks = rows.filter((r) => r.webhookId !== null);
  return {
    trackingId: g.trackingId,
    grantId: g.grantId,
    createdAt: g.createdAt,
    createdLocal: localTime(g.createdAt, timeZone),
    nonprofitName: g.nonprofitName,
    ein: g.ein,
    fundName: g.fundName,
    status: g.status,
    money: grantMoney(g),
    webhooks: hooks.length,
    delivered: hooks.filter((r) => r.delivery?.status === 'success').length,
    // A row with a webhook has a state of the timeline's (only the no-webhook row has another).
    differences: hooks.filter(isDifference).map((r) => ({ webhookId: r.webhookId!, state: r.state as TReconciliation })),
    waiting: hooks.flatMap((r) => (r.waiting ? [{ webhookId: r.webhookId!, why: r.waiting }] : [])),
  };
}

export async function loadReconciliation(api: ConnectApi, q: TReconListQuery): Promise<TReconView> {
  const range = dayRange(q.date, q.timeZone);
  const day = await openDay(api, { ...range, ...(q.nonprofit ? { nonprofit: q.nonprofit } : {}) });
  const counts = newDayCounts();
  const grants: TReconGrant[] = [];
  const suspicious: TReconView['suspicious'] = [];
  const waiting = new Map<string, TReconView['waiting'][number]>();
  let [differences, suspiciousPairs, matching, differing] = [0, 0, 0, 0];
  const first = (q.page - 1) * GRANTS_PER_PAGE;
  const take = (rows: TReconRow[]) => {
    const differs = rows.some(isDifference);
    if (differs) differing++;
    if (q.show === 'all' || differs) {
      if (matching >= first && matching < first + GRANTS_PER_PAGE) grants.push(grantOf(rows, q.timeZone));
      matching++;
    }
  };
  await day.run(async (rows) => {
    let start = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      countRow(counts, r);
      if (isDifference(r)) differences++;
      if (r.waiting && r.webhookId !== null) {
        const w = waiting.get(r.webhookId) ?? { webhookId: r.webhookId, why: r.waiting, grants: 0 };
        w.grants++;
        waiting.set(r.webhookId, w);
      }
      if (r.suspicious && r.webhookId !== null) {
        suspiciousPairs++;
        if (suspicious.length < SHOWN_SUSPICIOUS) suspicious.push({ trackingId: r.grant.trackingId, webhookId: r.webhookId, arrivals: r.suspicious });
      }
      // A grant's rows come together, and a batch never splits a grant.
      if (i + 1 === rows.length || rows[i + 1].grant !== r.grant) {
        take(rows.slice(start, i + 1));
        start = i + 1;
      }
    }
  });
  const nonprofits = countedNonprofits(counts);
  return {
    date: q.date,
    timeZone: q.timeZone,
    from: range.after,
    to: range.before,
    nonprofit: q.nonprofit ?? null,
    totals: { ...countedTotals(nonprofits), differences, suspicious: suspiciousPairs },
    nonprofits,
    list: { show: q.show, page: q.page, pages: Math.max(1, Math.ceil(matching / GRANTS_PER_PAGE)), matching, differing, grants },
    suspicious,
    waiting: [...waiting.values()],
  };
}
