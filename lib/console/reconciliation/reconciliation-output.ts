import type { ConnectApi } from '@/lib/console/connect-api/client';
import { csvRows } from '@/lib/console/export/csv-writer';
import { dayRange } from './day-range';
import { isDifference, openDay, type TReconRow } from './reconcile-day';
import { CSV_COLUMNS } from './reconciliation-columns';
import { countedNonprofits, countedTotals, countRow, newDayCounts } from './reconciliation-counts';
import { csvRowWriter } from './reconciliation-csv';

// The daily reconciliation as the console answers it, streamed as it is read: JSON (the
// differences as they are found, then the totals and each nonprofit's count per webhook) or CSV
// (one row per grant × webhook, a header first: reconciliation-csv.ts). Suspicious arrivals (a
// copy that did not verify beside a verified delivery, reconcile.ts) are no difference: the JSON
// lists them apart, the CSV counts them in a column of their own. Donor names and e-mail leave
// only in the CSV and only with includeDonor (the rule of every export); the JSON carries none.

export type TReconQuery = { date: string; timeZone: string; nonprofit?: string; format: 'json' | 'csv'; includeDonor: boolean };

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
  const counts = newDayCounts();
  let differences = 0;
  const suspicious: { trackingId: string; grantId: string; nonprofitId: string; webhookId: string; state: TReconRow['state']; arrivals: number }[] = [];
  const csvRow = csvRowWriter(q, day.webhooks);
  void (async () => {
    try {
      let firstDifference = true;
      if (q.format === 'csv') await write(csvRows([[...CSV_COLUMNS]]));
      else
        await write(
          `{"date":${JSON.stringify(q.date)},"timeZone":${JSON.stringify(q.timeZone)},"from":"${range.after}","to":"${range.before}","nonprofit":${JSON.stringify(q.nonprofit ?? null)},"differences":[`,
        );
      await day.run(async (rows) => {
        for (const r of rows) countRow(counts, r);
        if (q.format === 'csv') {
          let text = '';
          for (const r of rows) text += csvRow(r);
          return write(text);
        }
        let text = '';
        for (const r of rows) {
          if (r.webhookId === null) continue;
          if (r.suspicious)
            suspicious.push({
              trackingId: r.grant.trackingId,
              grantId: r.grant.grantId,
              nonprofitId: r.grant.nonprofitId,
              webhookId: r.webhookId,
              state: r.state,
              arrivals: r.suspicious,
            });
          if (!isDifference(r)) continue;
          differences++;
          text += `${firstDifference ? '' : ','}${JSON.stringify({ trackingId: r.grant.trackingId, grantId: r.grant.grantId, nonprofitId: r.grant.nonprofitId, webhookId: r.webhookId, state: r.state })}`;
          firstDifference = false;
        }
        return write(text);
      });
      if (q.format === 'json') {
        const nonprofits = countedNonprofits(counts);
        const totals = { ...countedTotals(nonprofits), differences, suspicious: suspicious.length };
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
