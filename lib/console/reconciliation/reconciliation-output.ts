import type { ConnectApi } from '@/lib/console/connect-api/client';
import { csvLine, csvRows } from '@/lib/console/export/csv-writer';
import { REDACTED } from '@/lib/console/export/redact-export';
import { dayRange } from './day-range';
import { isDifference, openDay, type TReconRow } from './reconcile-day';

// The daily reconciliation as the console answers it, streamed as it is read: JSON (the
// differences as they are found, then the totals and each nonprofit's count per webhook) or CSV
// (one row per grant × webhook, a header first). Suspicious arrivals (a copy that did not verify
// beside a verified delivery, reconcile.ts) are no difference: the JSON lists them apart, the CSV
// counts them in a column of their own. Donor names and e-mail leave only in the CSV and
// only with includeDonor (the rule of every export); the JSON carries none.

export type TReconQuery = { date: string; timeZone: string; nonprofit?: string; format: 'json' | 'csv'; includeDonor: boolean };

type TWebhookCount = { webhookId: string; sent: number; delivered: number; received: number | null; verified: number | null; suspicious: number | null };
type TNonprofitCount = { nonprofitId: string; ein: string; name: string; grants: number; amount: number; webhooks: Map<string, TWebhookCount> };

export const CSV_COLUMNS = [
  'date', 'time_zone', 'tracking_id', 'grant_id', 'grant_created_at', 'nonprofit_id', 'ein', 'nonprofit_name', 'amount_cents', 'webhook_id', 'webhook_url',
  'service_status', 'attempts', 'last_response_status', 'observed', 'received', 'verified', 'state', 'suspicious_arrivals', 'donor_first_name', 'donor_last_name', 'donor_email',
] as const;

function count(byNonprofit: Map<string, TNonprofitCount>, seen: Set<string>, row: TReconRow): void {
  const g = row.grant;
  let np = byNonprofit.get(g.nonprofitId);
  if (!np) byNonprofit.set(g.nonprofitId, (np = { nonprofitId: g.nonprofitId, ein: g.ein, name: g.nonprofitName, grants: 0, amount: 0, webhooks: new Map() }));
  if (!seen.has(g.grantId)) {
    seen.add(g.grantId);
    np.grants++;
    np.amount += g.amount;
  }
  let w = np.webhooks.get(row.webhookId);
  if (!w) np.webhooks.set(row.webhookId, (w = { webhookId: row.webhookId, sent: 0, delivered: 0, received: row.observed ? 0 : null, verified: row.observed ? 0 : null, suspicious: row.observed ? 0 : null }));
  if (row.delivery && row.delivery.attemptCount > 0) w.sent++;
  if (row.delivery?.status === 'success') w.delivered++;
  if (row.observed) {
    w.received = (w.received ?? 0) + (row.received > 0 ? 1 : 0);
    w.verified = (w.verified ?? 0) + (row.verified ? 1 : 0);
    w.suspicious = (w.suspicious ?? 0) + (row.suspicious > 0 ? 1 : 0);
  }
}

/** Opens the day (failures before any byte throw) and returns the body to stream. */
export async function reconciliationBody(api: ConnectApi, q: TReconQuery): Promise<ReadableStream<Uint8Array>> {
  const range = dayRange(q.date, q.timeZone);
  const day = await openDay(api, { ...range, ...(q.nonprofit ? { nonprofit: q.nonprofit } : {}) });
  const encoder = new TextEncoder();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, undefined, { highWaterMark: 4 });
  const writer = writable.getWriter();
  const write = async (text: string) => {
    if (!text) return;
    await writer.ready;
    await writer.write(encoder.encode(text));
  };
  const byNonprofit = new Map<string, TNonprofitCount>();
  const seen = new Set<string>();
  let totals = { grants: 0, amount: 0, differences: 0, suspicious: 0 };
  const suspicious: { trackingId: string; grantId: string; nonprofitId: string; webhookId: string; state: TReconRow['state']; arrivals: number }[] = [];
  // A grant's own cells (its first nine and the donor's three) are the same on each of its webhooks'
  // rows, a webhook's two on each of its grants', and the outcome's eight take a few dozen values
  // in a day: each is written by the CSV writer once and the row put together from them (a day is
  // ~300k rows; stringifying each cell of each row was a third of the CSV's time).
  const line = csvLine;
  const webhookCells = new Map<string, string>();
  const outcomeCells = new Map<string, string>();
  let lastGrant: TReconRow['grant'] | null = null;
  let head = '';
  let tail = '';
  const csvRow = (r: TReconRow): string => {
    const g = r.grant;
    if (g !== lastGrant) {
      lastGrant = g;
      const donor = q.includeDonor ? g.donor : { firstName: REDACTED, lastName: REDACTED, email: REDACTED };
      head = line([q.date, q.timeZone, g.trackingId, g.grantId, g.createdAt, g.nonprofitId, g.ein, g.nonprofitName, g.amount]);
      tail = line([donor.firstName, donor.lastName, donor.email]);
    }
    let hook = webhookCells.get(r.webhookId);
    if (hook === undefined) webhookCells.set(r.webhookId, (hook = line([r.webhookId, day.webhooks.get(r.webhookId)?.url ?? ''])));
    const d = r.delivery;
    const outcome = [d?.status ?? 'not queued', d?.attemptCount ?? 0, d?.lastResponseStatusCode ?? '', String(r.observed), r.observed ? r.received : '', r.observed ? String(r.verified) : '', r.state, r.observed ? r.suspicious : ''];
    const key = outcome.join('\u0000');
    let done = outcomeCells.get(key);
    if (done === undefined) outcomeCells.set(key, (done = line(outcome)));
    return `${head},${hook},${done},${tail}\n`;
  };
  void (async () => {
    try {
      let firstDifference = true;
      if (q.format === 'csv') await write(csvRows([[...CSV_COLUMNS]]));
      else await write(`{"date":${JSON.stringify(q.date)},"timeZone":${JSON.stringify(q.timeZone)},"from":"${range.after}","to":"${range.before}","nonprofit":${JSON.stringify(q.nonprofit ?? null)},"differences":[`);
      await day.run(async (rows) => {
        for (const r of rows) count(byNonprofit, seen, r);
        if (q.format === 'csv') {
          let text = '';
          for (const r of rows) text += csvRow(r);
          return write(text);
        }
        let text = '';
        for (const r of rows) {
          if (r.suspicious) suspicious.push({ trackingId: r.grant.trackingId, grantId: r.grant.grantId, nonprofitId: r.grant.nonprofitId, webhookId: r.webhookId, state: r.state, arrivals: r.suspicious });
          if (!isDifference(r)) continue;
          totals.differences++;
          text += `${firstDifference ? '' : ','}${JSON.stringify({ trackingId: r.grant.trackingId, grantId: r.grant.grantId, nonprofitId: r.grant.nonprofitId, webhookId: r.webhookId, state: r.state })}`;
          firstDifference = false;
        }
        return write(text);
      });
      if (q.format === 'json') {
        const nonprofits = [...byNonprofit.values()].sort((a, b) => a.name.localeCompare(b.name) || a.ein.localeCompare(b.ein)).map((n) => ({ ...n, webhooks: [...n.webhooks.values()] }));
        totals = { ...totals, grants: nonprofits.reduce((s, n) => s + n.grants, 0), amount: nonprofits.reduce((s, n) => s + n.amount, 0), suspicious: suspicious.length };
        await write(`],"suspicious":${JSON.stringify(suspicious)},"totals":${JSON.stringify(totals)},"nonprofits":${JSON.stringify(nonprofits)}}`);
      }
      await writer.close();
    } catch (err) {
      day.close();
      // Cut, never a short body that looks whole.
      await writer.abort(err).catch(() => {});
    }
  })();
  return readable;
}
