import { performance } from 'node:perf_hooks';
import type { TApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { CONFIG, type TStore } from './config';
import { runLoad } from './load';
import { atMost, fmt, printTable, type TFigure } from './report';
import { seedTimelineSql } from './seed-timeline';
import { rssMiB } from './stats';
import { timeReads } from './time-reads';
import { withAppSql } from './stores';

// Timelines: the views staff and integrators read, on webhook A with ~100 real messages (delivered
// by the worker to a console receiver in the app itself), first in a small database; then ~100k
// messages are stored by SQL onto webhooks B and C, and A and B are read again. Every view should
// cost at 100k what it cost at 100 (B is the hard case: its own pages run over 100k rows).

type TView = { name: string; path: (webhookId: string) => string; auth: 'token' | 'cookie' };

const VIEWS: TView[] = [
  { name: 'API GET /v1/webhooks/{id}/messages', path: (id) => `/v1/webhooks/${id}/messages`, auth: 'token' },
  { name: 'API … /messages?status=failed', path: (id) => `/v1/webhooks/${id}/messages?status=failed`, auth: 'token' },
  { name: 'console JSON /api/webhooks/{id}/timeline (1 s poll)', path: (id) => `/api/webhooks/${id}/timeline`, auth: 'cookie' },
  { name: 'console JSON … /timeline?status=failed', path: (id) => `/api/webhooks/${id}/timeline?status=failed`, auth: 'cookie' },
  { name: 'console page /webhooks/{id} (HTML)', path: (id) => `/webhooks/${id}`, auth: 'cookie' },
  { name: 'API GET /v1/webhooks/{id}/stats?window=7d', path: (id) => `/v1/webhooks/${id}/stats?window=7d`, auth: 'token' },
  { name: 'console JSON /api/webhooks/{id}/stats?window=24h', path: (id) => `/api/webhooks/${id}/stats?window=24h`, auth: 'cookie' },
  // Account-wide: the same for A and B (they are one account's); what the home and problems cost.
  { name: 'console JSON /api/webhook-health?window=7d (home)', path: () => '/api/webhook-health?window=7d', auth: 'cookie' },
  { name: 'console JSON /api/problems (7 d)', path: () => '/api/problems', auth: 'cookie' },
];
/** Median ms of each view for the webhook (time-reads.ts). */
function timeViews(app: TApp, webhookId: string): Promise<{ medians: number[]; p90s: number[] }> {
  return timeReads(
    app,
    VIEWS.map((v) => ({ name: `${v.name} for ${webhookId}`, path: v.path(webhookId), auth: v.auth })),
    CONFIG.timeline.runs,
  );
}

async function subscribe(app: TApp, tok: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url, eventTypes: ['grant.succeeded'], description: 'bench timeline' } });
  if (res.status !== 201) throw new Error(`creating a webhook: ${res.status} ${res.text}`);
  const secret = await call(app, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: tok });
  return { id: res.body.id, secret: secret.body.key };
}

/** Sends `count` test events to the webhook and waits until the worker has settled every one. */
async function realMessages(app: TApp, tok: string, webhookId: string, count: number): Promise<void> {
  const sent = await runLoad(app.baseUrl, {
    count,
    connections: 4,
    maxSeconds: 60,
    make: () => ({ method: 'POST', path: `/v1/webhooks/${webhookId}/test`, headers: { authorization: `Bearer ${tok}` } }),
  });
  if (sent.ok !== count) throw new Error(`test events: ${sent.ok} of ${count} accepted (${JSON.stringify(sent.statuses)} ${sent.firstError ?? ''})`);
  await eventually(
    async () => {
      for (const status of ['pending', 'sending']) {
        const page = await call(app, 'GET', `/v1/webhooks/${webhookId}/messages?status=${status}&pageLimit=1`, { token: tok });
        if (page.status !== 200 || page.body.results.length > 0) return false;
      }
      return true;
    },
    120_000,
    `${count} test events delivered`,
  );
}

export async function benchTimeline(store: TStore, app: TApp): Promise<TFigure[]> {
  const { small, rows, runs } = CONFIG.timeline;
  console.log(`\n── Timelines on ${store}: webhook A with ${small} messages, then ${fmt(rows)} more stored on B and C; median of ${runs} reads`);
  const tok = await token(app);
  const cookie = await staffCookie(app);
  const rcv = await call(app, 'POST', '/api/receivers', { body: { name: 'bench timeline' }, headers: { cookie } });
  if (rcv.status !== 201) throw new Error(`creating a receiver: ${rcv.status} ${rcv.text}`);
  const receiverPath = `/ingest/${rcv.body.slug}`;
  const a = await subscribe(app, tok, `${app.baseUrl}${receiverPath}`);
  const b = await subscribe(app, tok, `${app.baseUrl}${receiverPath}`);
  const c = await subscribe(app, tok, `${app.baseUrl}/ingest/bench-elsewhere`);
  const patched = await call(app, 'PATCH', `/api/receivers/${rcv.body.id}`, { body: { secrets: [a.secret, b.secret] }, headers: { cookie } });
  if (patched.status !== 200) throw new Error(`setting the receiver's secrets: ${patched.status} ${patched.text}`);
  await realMessages(app, tok, a.id, small);

  // Both measurements follow the same step (VACUUM ANALYZE; on PGlite a restart), so they differ only in size.
  await withAppSql(app, (sql) => sql('vacuum analyze'));
  const before = await timeViews(app, a.id);
  const rssBefore = rssMiB(app.pid());

  const t0 = performance.now();
  const counts = await withAppSql(app, async (sql) => {
    const [acct] = await sql(`select account_id from service.webhooks where id = '${a.id}'`);
    const [seeded] = await sql(
      seedTimelineSql({ rows, accountId: String(acct.account_id), webhookB: b.id, webhookC: c.id, receiverId: rcv.body.id, receiverPath }),
    );
    await sql('vacuum analyze');
    return seeded;
  });
  console.log(
    `  seeded in ${fmt((performance.now() - t0) / 1000, 1)} s: ${Object.entries(counts)
      .map(([k, v]) => `${fmt(Number(v))} ${k}`)
      .join(', ')}`,
  );
  const afterA = await timeViews(app, a.id);
  const afterB = await timeViews(app, b.id);
  const rssAfter = rssMiB(app.pid());

  const r = (x: number, y: number) => `${(x / y).toFixed(2)}×`;
  printTable(
    `Timelines on ${store} (median ms of ${runs} reads; p90 in brackets)`,
    ['view', `A @ ${small}`, `A @ ${fmt(rows)}`, `B @ ${fmt(rows)}`, 'A ratio', 'B ratio'],
    VIEWS.map((v, i) => [
      v.name,
      `${fmt(before.medians[i], 1)} (${fmt(before.p90s[i], 1)})`,
      `${fmt(afterA.medians[i], 1)} (${fmt(afterA.p90s[i], 1)})`,
      `${fmt(afterB.medians[i], 1)} (${fmt(afterB.p90s[i], 1)})`,
      r(afterA.medians[i], before.medians[i]),
      r(afterB.medians[i], before.medians[i]),
    ]),
  );
  console.log(`  app RSS before → after: ${fmt(rssBefore)} → ${fmt(rssAfter)} MiB${store === 'pglite' ? ' (restarted for the seeding in between)' : ''}`);
  return VIEWS.flatMap((v, i): TFigure[] => [
    {
      store,
      figure: `timeline A @ ${fmt(rows)}: ${v.name}`,
      unit: 'ms',
      value: afterA.medians[i],
      baseline: before.medians[i],
      baselineName: `A @ ${small}`,
      target: atMost(1.2),
    },
    {
      store,
      figure: `timeline B @ ${fmt(rows)}: ${v.name}`,
      unit: 'ms',
      value: afterB.medians[i],
      baseline: before.medians[i],
      baselineName: `A @ ${small}`,
      target: atMost(1.2),
    },
  ]);
}
