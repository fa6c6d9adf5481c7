import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import type { TApp } from '../helpers/app';
import { call, staffCookie, token } from '../helpers/http';
import type { TStore } from './config';
import { atLeast, atMost, fmt, type TFigure } from './report';
import { assertSafe } from './seed-timeline';

// The daily reconciliation at the scale section's size (100k grants × 20 webhooks over a week):
// the grants rows behind the seeded grant.succeeded messages (one nonprofit, one Connect), then
// yesterday's CSV (UTC, ≈ 14k grants × 20 webhooks) timed end to end over HTTP — target ≤ 10 s —
// and its rows per second beside the same run's NDJSON export of one webhook (lines per second).

/** A nonprofit and a Connect of the account, for the seeded grants to belong to. */
export async function reconciliationConnect(app: TApp): Promise<{ connectId: string; nonprofitId: string }> {
  const tok = await token(app);
  const np = await call(app, 'POST', '/v1/nonprofits', {
    token: tok,
    body: { ein: '530196605', name: 'Scale Food Bank', user: { email: 'scale-np@example.org' } },
  });
  if (np.status !== 201 && np.status !== 200) throw new Error(`creating a nonprofit: ${np.status} ${np.text}`);
  const cid = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
  if (cid.status !== 201) throw new Error(`creating a Connect: ${cid.status} ${cid.text}`);
  return { connectId: cid.body.id, nonprofitId: np.body.id };
}

/** The grants of the seeded messages (ids and tracking ids from their tags), as create-grant would have stored them. */
export function seedScaleGrantsSql(accountId: string, c: { connectId: string; nonprofitId: string }): string {
  assertSafe([accountId, c.connectId, c.nonprofitId]);
  return `
insert into service.grants (id, account_id, connect_id, nonprofit_id, tracking_id, workflow_session_id, amount, fee_amount, covered_fees, status,
  fund_id, fund_name, first_name, last_name, email, created_at, updated_at)
select substr(m.tags[1], 7)::uuid, m.account_id, '${c.connectId}', '${c.nonprofitId}'::uuid, substr(m.tags[2], 10), 'wfs_' || substr(m.id, 10),
  1000 + (right(m.id, 6)::int % 500) * 100, 29, false, 'Initiated', 'fidelity-charitable', 'Fidelity Charitable', 'Donor', 'Number ' || right(m.id, 6),
  substr(m.tags[3], 7), m.created_at - interval '2 milliseconds', m.created_at
from service.messages m
where m.account_id = '${accountId}' and m.id like 'msg_Scale%'
on conflict do nothing;
analyze service.grants;`;
}

export async function benchReconciliation(
  app: TApp,
  store: TStore,
  webhooks: number,
  exportLinesPerSecond: number,
  label = 'scale',
): Promise<{ figures: TFigure[]; row: string[][] }> {
  const cookie = await staffCookie(app);
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const timed = async (format: 'csv' | 'json') => {
    const t0 = performance.now();
    const res = await request(`${app.baseUrl}/api/reconciliation?date=${day}&format=${format}`, { headers: { cookie }, bodyTimeout: 0, headersTimeout: 0 });
    if (res.statusCode !== 200) throw new Error(`reconciliation: ${res.statusCode} ${await res.body.text()}`);
    let lines = 0;
    let text = '';
    for await (const chunk of res.body) {
      if (format === 'csv') for (const byte of chunk as Buffer) lines += byte === 10 ? 1 : 0;
      else text += chunk;
    }
    const seconds = (performance.now() - t0) / 1000;
    return { seconds, rows: format === 'csv' ? lines - 1 : 0, grants: format === 'json' ? (JSON.parse(text).totals.grants as number) : 0 };
  };
  const json = await timed('json');
  const csv = await timed('csv');
  const perSecond = csv.rows / csv.seconds;
  const size = `${fmt(json.grants)} grants × ${webhooks} webhooks`;
  console.log(
    `  reconciliation of ${day}: ${size}; JSON ${fmt(json.seconds, 2)} s, CSV ${fmt(csv.seconds, 2)} s (${fmt(csv.rows)} rows, ${fmt(perSecond)} rows/s)`,
  );
  return {
    row: [
      [`reconciliation of a day (${size}), CSV, s`, '', `${fmt(csv.seconds, 2)} (${fmt(csv.rows)} rows)`, ''],
      ['reconciliation of that day, JSON, s', '', fmt(json.seconds, 2), ''],
      ["reconciliation CSV rows/s vs one webhook's NDJSON export lines/s", '', fmt(perSecond), `${(perSecond / exportLinesPerSecond).toFixed(2)}×`],
    ],
    figures: [
      {
        store,
        figure: `${label}: reconciliation CSV of a day (${size})`,
        unit: 's',
        value: csv.seconds,
        baseline: null,
        baselineName: null,
        target: atMost(10, 'value', '≤ 10 s'),
      },
      {
        store,
        figure: `${label}: reconciliation JSON of a day (${size})`,
        unit: 's',
        value: json.seconds,
        baseline: null,
        baselineName: null,
        target: atMost(10, 'value', '≤ 10 s'),
      },
      {
        store,
        figure: `${label}: reconciliation CSV rows/s vs the NDJSON export lines/s`,
        unit: 'rows/s',
        value: perSecond,
        baseline: exportLinesPerSecond,
        baselineName: 'export lines/s',
        target: atLeast(0.5),
      },
    ],
  };
}
