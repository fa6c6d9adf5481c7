// Own app: a 20 s disable threshold (DELIVERY_DISABLE_AFTER_MS), fast alert evaluation and a loopback SMTP server.
// @ci-one-store: CI runs this file in the embedded-store pass only (the console's pages and alerts over the service's HTTP answers; the sweep that warns runs on both stores in failing-warnings-sweep.test.ts and failing-warnings.test.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { dateIn } from '../../lib/console/reconciliation/day-range';
import { startApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { startInbox } from '../helpers/smtp-inbox';

// Issue 39 items 1–2 through both halves over HTTP: the console says when the service will disable a
// failing webhook (its page, the health home, problems, the "about to be disabled" alert rule), and
// after the outage names the gap — the grants never sent to it while it was disabled and those that
// failed for good — with "recover all", whose preview is what it sends (replay-missing + recover),
// audited, with the runs' progress. A real app and worker (threshold 20 s; retries after 1 s and 1 s,
// so its first grant fails for good early and nothing is attempted while the stretch runs on) and a
// receiver of the console answering 500 (its drill response, as the guide's outage drill sets it), then 200. SHOTS=<dir> also saves screenshots of the pages.
// Issue 50 item 1: the "about to be disabled" alert follows the outage to its end — e-mailed through
// a real SMTP server on loopback (and POSTed, signed, to a receiver of the console): firing, then
// [disabled] (the same alert, still firing, with the grants missed), then [recovered] only once the
// webhook is enabled and a delivery succeeded; texts in words, times in CONSOLE_TIME_ZONE.

// 45 s: the warning's checks below run while it is still about to be disabled, with room on a loaded
// machine (at 8 s they ran past it there, and at 20 s in CI beside its two other passes, 33 s in);
// the alert rule fires at a fifth of it.
const THRESHOLD_MS = 45_000;
type TStarted = Awaited<ReturnType<typeof startApp>>;
let app: TStarted;
let tok: string;
let cookie: string;
let apiKey = '';
/** The console's own receiver the webhook delivers to, answering as its drill form says (500, then 200). */
let drill = '';
const SECRET = `whsec_${Buffer.from('drill secret of the failing-warnings test').toString('base64')}`;
let hook = '';
let first = '';
let second = '';
let inbox: Awaited<ReturnType<typeof startInbox>>;
let targetId = '';
/** The days (in ZONE) the drill's grants were made on: its start's and, past midnight, the next. */
const days = new Set<string>();
let mailRule = '';
const ZONE = 'America/New_York';
const LOCAL_TIME = String.raw`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(America/New_York\)`;
const outageMails = () => inbox.mails.filter((m) => m.subject.includes('outage by mail:'));
const mailAlert = async () => ((await staff('GET', '/api/alerts')).body.results as any[]).find((a) => a.ruleId === mailRule);
/** The grants made while the webhook was disabled (replayed by Recover all). */
let never: string[] = [];

const api = (method: string, path: string, body?: unknown) => call(app, method, path, { token: tok, body });
const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
const page = async (path: string) => (await fetch(`${app.baseUrl}${path}`, { headers: { cookie } })).text();
/** The page's text with tags and React's comment markers gone, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<!--.*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/\s+/g, ' ');

async function grant(i: number): Promise<string> {
  const g = await call(app, 'POST', '/v1/grants', {
    token: tok,
    body: { amount: 2500 + i, fundId: 'fidelity-charitable', firstName: 'Mary', lastName: `Jackson${i}`, email: `mary-${i}@example.org` },
    headers: { 'x-service-api-key': apiKey },
  });
  assert.equal(g.status, 201, g.text);
  return eventually(
    async () => (await api('GET', `/v1/messages?tag=grant:${g.body.id}`)).body.results?.[0]?.id as string | undefined,
    10000,
    'the grant message',
  );
}

/** The drill receiver's answer from now on, as its "Response (for drills)" form sets it. */
async function answer(status: number, body: string) {
  const res = await staff('PATCH', `/api/receivers/${drill}`, { responseStatus: status, responseBody: body });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.responseStatus, status);
}

async function shots(name: string, path: string) {
  const dir = process.env.SHOTS;
  if (!dir) return;
  const { chromium } = await import('playwright');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  try {
    const [k, v] = cookie.split('=');
    for (const width of [1280, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addCookies([{ name: k, value: v, url: app.baseUrl }]);
      const tab = await context.newPage();
      await tab.goto(`${app.baseUrl}${path}`);
      await tab.waitForLoadState('networkidle');
      await tab.screenshot({ path: `${dir}/warn-${name}-${width}.png`, fullPage: true });
      await context.close();
    }
  } finally {
    await browser.close();
  }
}

before(async () => {
  inbox = await startInbox();
  const alertEnv = { SMTP_URL: inbox.url, ALERT_EMAIL_FROM: 'alerts@example.org', CONSOLE_TIME_ZONE: ZONE };
  app = await startApp({ env: { DELIVERY_DISABLE_AFTER_MS: String(THRESHOLD_MS), DELIVERY_RETRY_SCHEDULE: '1,1', ALERT_EVAL_MS: '300', ...alertEnv } });
  [tok, cookie] = await Promise.all([token(app), staffCookie(app)]);
  days.add(dateIn(ZONE, new Date()));
  const np = await api('POST', '/v1/nonprofits', { ein: `46${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, user: { email: 'ops@example.org' } });
  const c = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
  apiKey = (await api('GET', `/v1/connects/${c.body.id}`)).body.apiKey;
  // The guide's outage drill: a receiver of the console stands in for the CRM, and its "Response (for
  // drills)" (PATCH /api/receivers/{id}, what its form sends) makes it answer 500 until the CRM is back.
  const r = await staff('POST', '/api/receivers', { name: 'Donor CRM stand-in', secret: SECRET });
  assert.equal(r.status, 201, r.text);
  drill = r.body.id;
  await answer(500, 'crm database down');
  const w = await api('POST', '/v1/webhooks', {
    url: r.body.ingestUrl,
    secret: SECRET,
    eventTypes: ['grant.succeeded'],
    description: 'Donor CRM (production)',
  });
  assert.equal(w.status, 201, w.text);
  hook = w.body.id;
});
after(async () => {
  await app?.stop();
  await inbox?.close();
});

describe('the console before and after a webhook is disabled', () => {
  test('while failing: its page, the health home, problems and an alert rule say when it will be disabled', async () => {
    const target = await staff('POST', '/api/receivers', { name: 'Alert target' });
    assert.equal(target.status, 201, target.text);
    const bad = await staff('POST', '/api/alert-rules', {
      name: 'soon disabled',
      kind: 'about_to_disable',
      threshold: 100,
      webhookId: hook,
      targetUrl: `${app.baseUrl}/ingest/${target.body.slug}`,
    });
    assert.equal(bad.status, 400, bad.text);
    assert.match(bad.text, /threshold/);
    const rule = await staff('POST', '/api/alert-rules', {
      name: 'soon disabled',
      kind: 'about_to_disable',
      threshold: 20,
      webhookId: hook,
      targetUrl: `${app.baseUrl}/ingest/${target.body.slug}`,
    });
    assert.equal(rule.status, 201, rule.text);
    targetId = target.body.id;
    const mailed = await staff('POST', '/api/alert-rules', {
      name: 'outage by mail',
      kind: 'about_to_disable',
      threshold: 20,
      webhookId: hook,
      targetUrl: 'mailto:oncall@example.org',
    });
    assert.equal(mailed.status, 201, mailed.text);
    mailRule = mailed.body.rule.id;

    // Both grants fail for good (retries after 1 s and 1 s) long before the 20 s threshold; after it the failing
    // sweep disables the webhook by time, so a grant made then would get no delivery at all.
    first = await grant(1);
    second = await grant(2);
    const outage = await eventually(
      async () => {
        const r = (await staff('GET', `/api/webhooks/${hook}/outage`)).body;
        return r.warning && r;
      },
      15000,
      'the warning',
    );
    assert.match(
      outage.warning.sentence,
      /^failing for \d+ s — will be disabled in (under a minute|about \d+ min) unless a delivery succeeds; \d+ grants? waiting$/,
    );
    const w = (await api('GET', `/v1/webhooks/${hook}`)).body;
    assert.equal(outage.warning.disablesAt, w.disablesAt, 'the service’s disablesAt');

    // The pages first, and their pictures: they must be read before the webhook is disabled, and on a loaded machine
    // (load ~16, seen once) waiting for the alert first left them too little of the 45 s. The alert and its e-mail are
    // kept as they were sent, so they are read after.
    const home = textOf(await page('/'));
    assert.match(home, /webhook is about to be disabled/);
    assert.match(home, /Donor CRM \(production\) : failing for \d+ s — will be disabled/);
    assert.match(textOf(await page(`/webhooks/${hook}`)), /About to be disabled .*failing for \d+ s — will be disabled/);
    assert.match(textOf(await page('/problems')), /About to be disabled .*Donor CRM \(production\) : failing for/);
    await shots('health-warning', '/');
    await shots('webhook-warning', `/webhooks/${hook}`);

    const alert = await eventually(
      async () => ((await staff('GET', '/api/alerts')).body.results as any[]).find((a) => a.ruleId === rule.body.rule.id),
      20000,
      'the alert',
    );
    assert.equal(alert.details.webhookId, hook);
    assert.ok(alert.details.percent >= 20, `fired at ${alert.details.percent} %`);
    assert.match(alert.details.warning, /will be disabled/);

    // The first notice, in words: the webhook by name, the last error, what waits, local times, its page.
    const warned = await eventually(async () => outageMails()[0], 20000, 'the warning e-mail');
    assert.equal(warned.subject, '[firing] outage by mail: Donor CRM (production) (sandbox)');
    const sentence =
      /^Donor CRM \(production\) is failing for \d+ s — will be disabled in (under a minute|about \d+ min) unless a delivery succeeds; (\d+) grants? waiting\.$/m.exec(
        warned.text,
      );
    assert.ok(sentence, warned.text);
    assert.match(warned.text, /^State: about to be disabled$/m, warned.text);
    assert.match(warned.text, /^Last error: 500: crm database down$/m, warned.text);
    // The backlog (pending and sending), the same the sentence counts, and the same words as the "paused too long" alert's: messages (a
    // test event waits there too), not grants.
    assert.match(warned.text, new RegExp(`^Waiting to be delivered: ${sentence[2]} messages?$`, 'm'), warned.text);
    assert.match(warned.text, new RegExp(`^Failing since: ${LOCAL_TIME}$`, 'm'), warned.text);
    assert.match(warned.text, new RegExp(`^Fired: ${LOCAL_TIME}$`, 'm'), warned.text);
    assert.match(warned.text, new RegExp(`^Open: ${app.baseUrl}/webhooks/${hook}$`, 'm'), warned.text);
    assert.doesNotMatch(warned.text, /\d\dT\d\d:|webhookId|failingSince|^[a-z]+[A-Z]\w*:/m, 'no raw field names nor ISO times');
  });

  test('after the outage: the gap named, "recover all" sends what the preview counted, audited, with progress', async () => {
    const disablesAt = Date.parse((await api('GET', `/v1/webhooks/${hook}`)).body.disablesAt);
    await eventually(async () => Date.now() > disablesAt + 200, THRESHOLD_MS + 5000, 'the threshold');
    const failedForGood = [first, second];
    await eventually(async () => (await api('GET', `/v1/webhooks/${hook}`)).body.disabled, 15000, 'the webhook disabled (by the sweep, at disablesAt)');
    // The worst moment is not the end: the same alert, still firing, now saying disabled (it was e-mailed [resolved]).
    const moved = await eventually(
      async () => {
        const a = await mailAlert();
        return (a.clearedAt || a.details.stage === 'disabled') && a;
      },
      15000,
      'the alert to follow the disabling',
    );
    assert.equal(moved.clearedAt, null, `still firing while the webhook is disabled: ${JSON.stringify(moved)}`);
    const escalated = await eventually(async () => outageMails().find((m) => m.subject.startsWith('[disabled]')), 15000, 'the [disabled] e-mail');
    assert.equal(escalated.subject, '[disabled] outage by mail: Donor CRM (production) (sandbox)');
    assert.match(
      escalated.text,
      new RegExp(`^Donor CRM \\(production\\) is disabled since ${LOCAL_TIME}: nothing is delivered to it, \\d+ grants? not sent to it so far`, 'm'),
      escalated.text,
    );
    assert.match(escalated.text, /^State: disabled$/m);
    assert.match(escalated.text, /^Last error: 500: crm database down$/m, escalated.text);
    assert.match(escalated.text, new RegExp(`^Open: ${app.baseUrl}/webhooks/${hook}$`, 'm'));
    never = [await grant(3), await grant(4), await grant(5)];
    const counted = await eventually(
      async () => {
        const a = await mailAlert();
        return a.details.missed === 3 && a;
      },
      15000,
      'the alert counting the grants missed',
    );
    assert.equal(counted.clearedAt, null);
    assert.match(
      textOf(await page('/alerts')),
      /firing: disabled .*disabled: 3 grants not sent to it so far, 2 failed for good \(last error 500: crm database down\)/,
    );
    const during = (await staff('GET', `/api/webhooks/${hook}/outage`)).body;
    assert.equal(during.warning, null);
    assert.equal(during.gap.enabledAt, null);
    assert.equal(during.gap.missing, 3);
    assert.match(
      textOf(await page(`/webhooks/${hook}`)),
      /disabled since \d\d:\d\d: 3 grants not sent to it so far, 2 failed for good — enable it to recover them/,
    );
    const refused = await staff('POST', `/api/webhooks/${hook}/outage`);
    assert.equal(refused.status, 409, refused.text);

    await answer(200, '');
    assert.equal((await api('PATCH', `/v1/webhooks/${hook}`, { disabled: false })).status, 200);
    // Enabled, but nothing delivered yet (nothing is sent to it before "Recover all"): still firing.
    const enabled = await eventually(
      async () => {
        const a = await mailAlert();
        return (a.clearedAt || a.details.stage === 'enabled') && a;
      },
      15000,
      'the alert to see the webhook enabled',
    );
    assert.equal(enabled.clearedAt, null, 'not recovered before a delivery succeeds');
    assert.match(textOf(await page('/alerts')), /enabled again; no delivery has succeeded yet/);
    const after = (await staff('GET', `/api/webhooks/${hook}/outage`)).body;
    assert.deepEqual([after.gap.missing, after.gap.failed], [3, 2]);
    const words = textOf(await page(`/webhooks/${hook}`));
    assert.match(words, /disabled \d\d:\d\d(:\d\d)?–\d\d:\d\d(:\d\d)?( \(\d+ s\))?: 3 grants were never sent to it, 2 failed for good/);
    assert.match(words, /Recover all 5/);
    assert.match(
      textOf(await page('/')),
      /After an outage .*Donor CRM \(production\) : disabled \d\d:\d\d(:\d\d)?–\d\d:\d\d(:\d\d)?( \(\d+ s\))?: 3 grants were never sent to it, 2 failed for good/,
    );
    await shots('health-gap', '/');
    await shots('webhook-gap', `/webhooks/${hook}`);

    const started = await staff('POST', `/api/webhooks/${hook}/outage`);
    assert.equal(started.status, 202, started.text);
    assert.equal(started.body.replay.messages + started.body.recover.messages, 5, 'what the preview counted');
    assert.deepEqual([started.body.replay.kind, started.body.recover.kind], ['replay-missing', 'recover']);
    await eventually(
      async () => {
        const [r1, r2] = await Promise.all([
          api('GET', `/v1/webhooks/${hook}/replay-missing/${started.body.replay.id}`),
          api('GET', `/v1/webhooks/${hook}/recover/${started.body.recover.id}`),
        ]);
        return r1.body.status === 'done' && r2.body.status === 'done' && r1.body.succeeded === 3 && r2.body.succeeded === 2;
      },
      20000,
      'both runs done',
    );
    const arrived = new Set(
      ((await staff('GET', `/api/receivers/${drill}/receipts?pageLimit=100`)).body.results as any[])
        .filter((r) => r.verdict === 'valid' && r.responseStatus === 200)
        .map((r) => String(r.messageId)),
    );
    // Deliveries succeed again: recovered, and only now.
    const recovered = await eventually(async () => outageMails().find((m) => m.subject.startsWith('[recovered]')), 15000, 'the [recovered] e-mail');
    assert.equal(recovered.subject, '[recovered] outage by mail: Donor CRM (production) (sandbox)');
    assert.match(recovered.text, /^Donor CRM \(production\) recovered: it is enabled and a delivery succeeded after this alert fired\.$/m);
    assert.match(recovered.text, new RegExp(`^Recovered: ${LOCAL_TIME}$`, 'm'));
    assert.deepEqual(
      outageMails().map((m) => m.subject.slice(0, m.subject.indexOf(']') + 1)),
      ['[firing]', '[disabled]', '[recovered]'],
    );
    assert.ok((await mailAlert()).clearedAt);
    // The signed rule is evaluated on its own (one rule after the other): its resolution may come a turn later.
    const receipts = async () =>
      ((await staff('GET', `/api/receivers/${targetId}/receipts?pageLimit=100`)).body.results as { bodyText: string }[])
        .reverse()
        .map((r) => JSON.parse(r.bodyText));
    const notices = await eventually(
      async () => {
        const got = await receipts();
        return got.some((n) => n.type === 'alert.resolved') && got;
      },
      15000,
      'the signed rule resolved',
    );
    assert.deepEqual(
      notices.map((n) => [n.type, n.data.stage]),
      [
        ['alert.fired', 'failing'],
        ['alert.escalated', 'disabled'],
        ['alert.resolved', 'enabled'],
      ],
    );
    assert.equal(notices[1].data.pageUrl, `${app.baseUrl}/webhooks/${hook}`);
    for (const id of [...never, ...failedForGood]) assert.ok(arrived.has(id), `${id} arrived`);
    const done = (await staff('GET', `/api/webhooks/${hook}/outage`)).body;
    assert.deepEqual([done.gap.missing, done.gap.failed], [0, 0]);
    assert.match(textOf(await page(`/webhooks/${hook}`)), /disabled \d\d:\d\d(:\d\d)?–\d\d:\d\d(:\d\d)?( \(\d+ s\))?: nothing left to recover/);
    const audit = (await staff('GET', '/api/audit')).body.results.find(
      (a: { action: string; result: string }) => a.action === 'webhook.recover-all' && a.result === 'ok',
    );
    assert.ok(audit, 'audited');
    assert.match(audit.target, new RegExp(`^${hook} rcvr_`));
    await shots('webhook-recovered', `/webhooks/${hook}`);
  });

  // Issue 50.4: a grant made while the webhook was disabled and sent by "Recover all" read "delivered
  // … manual", nothing saying it was missed in the outage and replayed by whom and when; its status
  // "Initiated" stood beside a grant.succeeded event unexplained. Learned over the API (the webhook's
  // events, the run that queued the delivery, its API client) and the audit log (who pressed it).
  test("the case and the timeline tell the outage's story: made while disabled, replayed by whom and when; the grant's status explained", async () => {
    const deliveryOf = async (msgId: string, webhookId = hook) => {
      const found = await staff('GET', `/api/search?q=${msgId}`);
      assert.equal(found.status, 200, found.text);
      return {
        delivery: found.body.messages.find((m: any) => m.id === msgId).deliveries.find((d: any) => d.webhook.id === webhookId),
        grants: found.body.grants,
      };
    };
    const clock = '(\\w{3} \\d+ )?\\d\\d:\\d\\d';
    // An outage under a minute is said to the second, with its length (lib/console/recover/gap-words.ts).
    const span = `(\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d(:\\d\\d)?–(\\d{4}-\\d\\d-\\d\\d )?\\d\\d:\\d\\d(:\\d\\d)?( \\(\\d+ s\\))? UTC`;
    const missed = await deliveryOf(never[0]);
    assert.match(
      missed.delivery.story,
      new RegExp(`^made while the webhook was disabled \\(${span}\\); replayed by Recover all \\(admin@example\\.org\\) at ${clock} UTC$`),
    );
    assert.equal(missed.grants[0].status, 'Initiated');
    assert.match(
      missed.grants[0].statusNote,
      /^Initiated — the service’s status for this grant now: the grant was made \(that is what its grant\.succeeded event says\)/,
    );
    const failed = await deliveryOf(first);
    assert.match(
      failed.delivery.story,
      new RegExp(`^re-sent after it failed by Recover all \\(admin@example\\.org\\) at ${clock} UTC$`),
      'failed in the stretch before the disable: no outage part',
    );
    const detail = await staff('GET', `/api/webhooks/${hook}/messages/${never[1]}`);
    assert.equal(detail.status, 200, detail.text);
    assert.match(
      detail.body.story,
      /^made while the webhook was disabled .*; replayed by Recover all \(admin@example\.org\) at /,
      "the timeline's message says it too",
    );

    // Disabled and enabled through the API, its missed grant replayed by the API: the run's API client.
    assert.equal((await api('PATCH', `/v1/webhooks/${hook}`, { disabled: true })).status, 200);
    const missedAgain = await grant(6);
    assert.equal((await api('PATCH', `/v1/webhooks/${hook}`, { disabled: false })).status, 200);
    const since = new Date(Date.now() - 120_000).toISOString();
    const replay = await api('POST', `/v1/webhooks/${hook}/replay-missing`, { since });
    assert.equal(replay.status, 202, replay.text);
    assert.equal(replay.body.clientId, 'sandbox-client');
    await eventually(async () => (await api('GET', `/v1/webhooks/${hook}/messages/${missedAgain}`)).body.status === 'success', 15000, 'the replay delivered');
    const viaApi = await deliveryOf(missedAgain);
    assert.match(
      viaApi.delivery.story,
      new RegExp(`^made while the webhook was disabled \\(${span}\\); replayed by replay-missing \\(API client sandbox-client\\) at ${clock} UTC$`),
    );
    const ordinary = await grant(7);
    await eventually(async () => (await api('GET', `/v1/webhooks/${hook}/messages/${ordinary}`)).body.status === 'success', 15000, 'an ordinary delivery');
    assert.equal((await deliveryOf(ordinary)).delivery.story, null, 'an ordinary delivery has no story to tell');
  });

  // The drill's last step in the guide: the day's reconciliation, as finance files it. Every grant
  // of the drill — failed for good and re-sent, made while disabled and replayed, ordinary — is one
  // donation delivered and verified, whatever its arrivals; amounts in decimal with the currency.
  test("the day's reconciliation CSV after the drill: each grant delivered once, verified, no difference; money in decimal", async () => {
    days.add(dateIn(ZONE, new Date()));
    const rows: Record<string, string>[] = [];
    for (const day of days) {
      const res = await fetch(`${app.baseUrl}/api/reconciliation?date=${day}&format=csv`, { headers: { cookie } });
      assert.equal(res.status, 200);
      rows.push(...(parse(await res.text(), { columns: true }) as Record<string, string>[]).filter((r) => r.webhook_id === hook));
    }
    assert.equal(rows.length, 7, `a row for each of the drill's 7 grants: ${rows.map((r) => r.tracking_id).join(' ')}`);
    for (const r of rows) {
      assert.deepEqual(
        [r.service_status, r.delivered, r.received, r.verified, r.state, r.difference, r.currency, r.time_zone],
        ['success', 'yes', 'yes', 'yes', 'delivered-and-received', 'no', 'USD', ZONE],
        `${r.tracking_id}: ${JSON.stringify(r)}`,
      );
      assert.ok(Number(r.arrivals) >= 1 && Number(r.attempts) >= 1, `${r.tracking_id}: arrivals ${r.arrivals}, attempts ${r.attempts}`);
      assert.match(r.amount, /^25\.0[1-7]$/);
    }
    assert.ok(
      rows.some((r) => Number(r.arrivals) > 1),
      'the grants failed through the outage arrived more than once, and still count once',
    );
  });
});
