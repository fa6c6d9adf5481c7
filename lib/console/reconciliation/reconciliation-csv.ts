import type { TWebhook } from '@/lib/console/connect-api/types';
import { csvLine, money, type TCsvCell } from '@/lib/console/export/csv-writer';
import { REDACTED } from '@/lib/console/export/redact-export';
import { localTime } from './day-range';
import { grantMoney } from './grant-money';
import { GRANT_CURRENCY } from './reconciliation-columns';
import { isDifference, type TReconRow } from './reconcile-day';

// The reconciliation's CSV rows (columns and their meaning: reconciliation-columns.ts), one per
// grant × webhook. A grant's own cells (its first eighteen and the donor's three) are the same on
// each of its webhooks' rows but for first_row_of_grant, a webhook's two on each of its grants',
// and the outcome's eleven take a few dozen values in a day: each is written by the CSV writer once
// and the row put together from them (a day is ~300k rows; stringifying each cell of each row was a
// third of the CSV's time). Flags are yes/no, counts and money numbers.

const yesNo = (v: boolean) => (v ? 'yes' : 'no');

/** An EIN as the IRS writes it, 12-3456789: nine bare digits are a number to a spreadsheet, which drops a leading zero (042103580 → 42103580). */
const einText = (ein: string) => (/^\d{9}$/.test(ein) ? `${ein.slice(0, 2)}-${ein.slice(2)}` : ein);

/** The grant's cells, without first_row_of_grant (its last). */
function grantCells(g: TReconRow['grant'], date: string, timeZone: string): TCsvCell[] {
  const m = grantMoney(g);
  return [
    date,
    timeZone,
    g.trackingId,
    g.grantId,
    g.createdAt,
    localTime(g.createdAt, timeZone),
    g.status,
    g.fundId,
    g.fundName,
    g.nonprofitId,
    einText(g.ein),
    g.nonprofitName,
    money(m.amount),
    money(m.fee),
    yesNo(m.covered),
    money(m.net),
    GRANT_CURRENCY,
    m.amount,
  ];
}

function outcomeCells(r: TReconRow): TCsvCell[] {
  if (r.webhookId === null) return ['', '', '', '', '', '', '', '', r.state, 'no', ''];
  const d = r.delivery;
  const seen = r.observed;
  return [
    d?.status ?? 'not queued',
    yesNo(d?.status === 'success'),
    d?.attemptCount ?? 0,
    d?.lastResponseStatusCode ?? '',
    yesNo(seen),
    seen ? yesNo(r.received > 0) : '',
    seen ? yesNo(r.verified) : '',
    seen ? r.received : '',
    r.state,
    yesNo(isDifference(r)),
    seen ? r.suspicious : '',
  ];
}

/** A writer of the day's rows, in order (a grant's rows come together). */
export function csvRowWriter(q: { date: string; timeZone: string; includeDonor: boolean }, webhooks: Map<string, TWebhook>): (r: TReconRow) => string {
  const webhookCells = new Map<string, string>();
  const outcomes = new Map<string, string>();
  let lastGrant: TReconRow['grant'] | null = null;
  let head = '';
  let tail = '';
  let first = false;
  return (r) => {
    const g = r.grant;
    if (g !== lastGrant) {
      lastGrant = g;
      first = true;
      const donor = q.includeDonor ? g.donor : { firstName: REDACTED, lastName: REDACTED, email: REDACTED };
      head = csvLine(grantCells(g, q.date, q.timeZone));
      tail = csvLine([donor.firstName, donor.lastName, donor.email]);
    }
    const hookKey = r.webhookId ?? '';
    let hook = webhookCells.get(hookKey);
    if (hook === undefined) webhookCells.set(hookKey, (hook = csvLine(r.webhookId === null ? ['', ''] : [r.webhookId, webhooks.get(r.webhookId)?.url ?? ''])));
    const outcome = outcomeCells(r);
    const key = outcome.join('\u0000');
    let done = outcomes.get(key);
    if (done === undefined) outcomes.set(key, (done = csvLine(outcome)));
    const line = `${head},${first ? 'yes' : 'no'},${hook},${done},${tail}\n`;
    first = false;
    return line;
  };
}
