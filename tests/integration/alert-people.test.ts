// Own app: fast alert evaluation (ALERT_EVAL_MS 200 ms, ALERT_REPEAT 2 s) and a loopback SMTP server.
// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is how alerts reach people — e-mail, Slack, snooze, acknowledge — the same on any store; alerts.test.ts runs the rules' evaluation on both).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../helpers/app';
import { call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { screenshotPages } from '../helpers/screenshots';
import { mailText, startInbox, type TMail } from '../helpers/smtp-inbox';

// Alerts that reach people: a rule's target may be mailto: (sent through a real SMTP server on
// loopback, the smtp-server package) or a Slack incoming webhook (a small HTTP server that answers
// as Slack does: 200 "ok" to a valid message, 400 "invalid_payload" otherwise); a firing alert is
// sent again every ALERT_REPEAT until an operator acknowledges it (or while snoozed it is not);
// resolution clears the snooze, and the next start of the condition fires anew, unacknowledged.

type TStarted = Awaited<ReturnType<typeof startApp>>;
type TSlack = { body: any; headers: http.IncomingHttpHeaders; valid: boolean };

const EVAL_MS = 200;
const ZONE = 'Europe/Berlin';
const REPEAT = '2s';
let app: TStarted;
let receiver: TReceiver;
let smtp: Awaited<ReturnType<typeof startInbox>>;
const mails = (): TMail[] => smtp.mails;
let slackServer: http.Server;
let slackUrl: string;
let tok: string;
const cookies: Record<'admin' | 'operator' | 'viewer', string> = { admin: '', operator: '', viewer: '' };
const slack: TSlack[] = [];

/** Slack's incoming-webhook shape: `text` a non-empty string, `blocks` (optional) an array of typed blocks. */
function slackValid(body: any): boolean {
  if (!body || typeof body.text !== 'string' || !body.text.trim()) return false;
  if (body.blocks === undefined) return true;
  return (
    Array.isArray(body.blocks) &&
    body.blocks.length <= 50 &&
    body.blocks.every((b: any) => typeof b?.type === 'string' && ['section', 'actions', 'context', 'header', 'divider'].includes(b.type))
  );
}

before(async () => {
  smtp = await startInbox();
  slackServer = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: invalid */
      }
      const valid = /^application\/json/.test(req.headers['content-type'] ?? '') && slackValid(body);
      slack.push({ body, headers: req.headers, valid });
      res.writeHead(valid ? 200 : 400, { 'content-type': 'text/plain' }).end(valid ? 'ok' : 'invalid_payload');
    });
  });
  await new Promise<void>((resolve) => slackServer.listen(0, '127.0.0.1', resolve));
  slackUrl = `http://127.0.0.1:${(slackServer.address() as AddressInfo).port}/services/T000/B000/XXXX`;
  const alertEnv = {
    ALERT_EVAL_MS: String(EVAL_MS),
    ALERT_REPEAT: REPEAT,
    SMTP_URL: smtp.url,
    ALERT_EMAIL_FROM: 'Console Alerts <alerts@example.org>',
    CONSOLE_TIME_ZONE: ZONE,
  };
  [app, receiver] = await Promise.all([startApp({ env: alertEnv }), startReceiver()]);
  [tok, cookies.admin] = await Promise.all([token(app), staffCookie(app)]);
  for (const role of ['viewer', 'operator'] as const) {
    const res = await call(app, 'POST', '/api/users', { headers: { cookie: cookies.admin }, body: { email: `${role}-alerts@example.org`, role } });
    assert.equal(res.status, 201, res.text);
    cookies[role] = await staffCookie(app, { email: `${role}-alerts@example.org`, password: res.body.password });
  }
});
after(async () => {
  await app?.stop();
  await receiver?.close();
  await smtp?.close();
  await new Promise<void>((resolve) => (slackServer ? slackServer.close(() => resolve()) : resolve()));
});

const as = (who: keyof typeof cookies, method: string, p: string, body?: unknown) => call(app, method, p, { headers: { cookie: cookies[who] }, body });

async function disabledWebhook(): Promise<string> {
  const ep = receiver.endpoint(() => ({ status: 200 }));
  const res = await call(app, 'POST', '/v1/webhooks', {
    token: tok,
    body: { url: ep.url, eventTypes: ['message.attempt.exhausted'], description: `people ${Math.random()}` },
  });
  assert.equal(res.status, 201, res.text);
  return res.body.id as string;
}
const setDisabled = async (w: string, disabled: boolean) =>
  assert.equal((await call(app, 'PATCH', `/v1/webhooks/${w}`, { token: tok, body: { disabled } })).status, 200);

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await as('admin', 'POST', '/api/alert-rules', { name: 'people webhook_disabled', kind: 'webhook_disabled', ...body });
  assert.equal(res.status, 201, res.text);
  return res.body.rule.id as string;
}
const alertsOf = async (ruleId: string) => ((await as('admin', 'GET', '/api/alerts')).body.results as any[]).filter((a) => a.ruleId === ruleId);
const firing = (ruleId: string, subject: string) =>
  eventually(async () => (await alertsOf(ruleId)).find((a) => a.subject === subject && !a.clearedAt && a.firedPost.at), 30_000, `${subject} to fire`);

describe('alert targets and quieting', () => {
  test('a mailto: rule sends e-mail through SMTP_URL, again every ALERT_REPEAT, until an operator acknowledges it; resolution is sent too', async () => {
    const w = await disabledWebhook();
    const ruleId = await rule({ webhookId: w, targetUrl: 'mailto:oncall@example.org,finance@example.org' });
    const rules = (await as('admin', 'GET', '/api/alert-rules')).body.results as any[];
    assert.equal(rules.find((r) => r.id === ruleId).targetFormat, 'email');
    const mine = () => mails().filter((m) => m.text.includes(w));
    await setDisabled(w, true);
    const alert = await firing(ruleId, `webhook:${w}`);
    assert.equal(alert.firedPost.status, 250, 'the SMTP server accepted it');
    assert.equal(alert.acknowledgedBy, null);
    const [first] = await eventually(async () => mine().length >= 1 && mine(), 15_000, 'the first e-mail');
    assert.equal(first.from, 'alerts@example.org');
    assert.deepEqual(first.to.sort(), ['finance@example.org', 'oncall@example.org']);
    assert.match(first.subject, /^\[firing\] people webhook_disabled: /);
    assert.match(first.text, /^Reason: disabled through the API/m);
    assert.match(first.text, new RegExp(`^Acknowledge or snooze it \\(stops the reminders\\): ${app.baseUrl}/alerts#alert-${alert.id}$`, 'm'));
    assert.match(first.text, new RegExp(`^Open: ${app.baseUrl}/webhooks/${w}$`, 'm'));
    // Nobody acknowledged it: a reminder after ALERT_REPEAT.
    const reminders = await eventually(async () => mine().length >= 2 && mine(), 20_000, 'a reminder');
    assert.match(reminders[1].subject, /^\[still firing\] /);
    assert.ok((await alertsOf(ruleId))[0].repeats >= 1);

    // A viewer may not quiet it; an operator may.
    assert.equal((await as('viewer', 'POST', `/api/alerts/${alert.id}/acknowledge`, { note: 'x' })).status, 403);
    const ack = await as('operator', 'POST', `/api/alerts/${alert.id}/acknowledge`, { note: 'Acme is migrating; on it' });
    assert.equal(ack.status, 200, ack.text);
    assert.equal(ack.body.acknowledgedBy, 'operator-alerts@example.org');
    const [listed] = await alertsOf(ruleId);
    assert.equal(listed.clearedAt, null, 'still firing');
    assert.equal(listed.acknowledgedBy, 'operator-alerts@example.org');
    assert.equal(listed.acknowledgeNote, 'Acme is migrating; on it');
    assert.ok(Date.parse(listed.acknowledgedAt) > Date.parse(listed.firedAt));
    const summary = await as('admin', 'GET', '/api/alerts?summary=1');
    assert.ok(summary.body.quietFiring >= 1);
    if (process.env.PEOPLE_SCREENSHOTS) await screenshotPages(app, cookies.operator, process.env.PEOPLE_SCREENSHOTS, ['/alerts']);
    // A reminder claimed just before the acknowledgement may still go out; none after it.
    await eventually(async () => mine().length === 1 + (await alertsOf(ruleId))[0].repeats, 15_000, 'every claimed reminder sent');
    const repeats = (await alertsOf(ruleId))[0].repeats;
    await sleep(3 * 2000);
    assert.equal((await alertsOf(ruleId))[0].repeats, repeats, 'no reminder once acknowledged');
    assert.equal(mine().length, 1 + repeats);
    const audit = await as('admin', 'GET', '/api/audit?action=alert.acknowledge');
    assert.ok(
      audit.body.results.some((r: any) => r.actor === 'operator-alerts@example.org' && r.target.includes(alert.id)),
      audit.text,
    );

    await setDisabled(w, false);
    await eventually(async () => mine().some((m) => /^\[resolved\] /.test(m.subject)), 30_000, 'the resolved e-mail');
    // The condition again: a new alert, not acknowledged.
    await setDisabled(w, true);
    const again = await eventually(async () => (await alertsOf(ruleId)).find((a) => !a.clearedAt && a.id !== alert.id), 30_000, 'a new alert');
    assert.equal(again.acknowledgedBy, null);
    await setDisabled(w, false);
  });

  test("a Slack target gets Slack's JSON (text and blocks, no signature); a snooze (1–168 h) holds the reminders; resolution clears it", async () => {
    const w = await disabledWebhook();
    const ruleId = await rule({ webhookId: w, targetUrl: slackUrl, targetFormat: 'slack' });
    const mine = () => slack.filter((s) => JSON.stringify(s.body).includes(w));
    await setDisabled(w, true);
    const alert = await firing(ruleId, `webhook:${w}`);
    assert.equal(alert.firedPost.status, 200, 'Slack (the test server) said ok');
    const [first] = mine();
    assert.equal(first.valid, true, JSON.stringify(first.body));
    assert.match(first.body.text, /^\[firing\] people webhook_disabled: .* \(sandbox\)/);
    assert.equal(first.headers['webhook-signature'], undefined, 'a Slack URL is its own secret: nothing signed');

    for (const hours of [0, 169, 1.5, '4']) {
      const bad = await as('operator', 'POST', `/api/alerts/${alert.id}/snooze`, { hours });
      assert.equal(bad.status, 400, `${hours}: ${bad.text}`);
      assert.equal(bad.body.errors[0].path, 'hours');
    }
    assert.equal((await as('viewer', 'POST', `/api/alerts/${alert.id}/snooze`, { hours: 2 })).status, 403);
    assert.equal((await as('operator', 'POST', '/api/alerts/00000000-0000-4000-8000-000000000000/snooze', { hours: 2 })).status, 404);
    const snoozed = await as('operator', 'POST', `/api/alerts/${alert.id}/snooze`, { hours: 1 });
    assert.equal(snoozed.status, 200, snoozed.text);
    const until = Date.parse(snoozed.body.snoozedUntil);
    assert.ok(until - Date.now() > 50 * 60_000 && until - Date.now() <= 61 * 60_000, snoozed.body.snoozedUntil);
    assert.equal((await alertsOf(ruleId))[0].snoozedUntil, snoozed.body.snoozedUntil);
    // Issue 50 item 5: the page says "Snoozed until", in the console's zone, the zone named (it said "until 2026-11-29 03:26:28").
    const local = new Date(until).toLocaleString('sv-SE', { timeZone: ZONE });
    const alertsPage = (await (await fetch(`${app.baseUrl}/alerts`, { headers: { cookie: cookies.operator } })).text())
      .replace(/<!--.*?-->/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    assert.ok(
      alertsPage.includes(`Snoozed until ${local} (${ZONE})`),
      `Snoozed until ${local} (${ZONE}) in: ${alertsPage.slice(alertsPage.indexOf('snoozed') - 100, alertsPage.indexOf('snoozed') + 200)}`,
    );
    await eventually(async () => mine().length === 1 + (await alertsOf(ruleId))[0].repeats, 15_000, 'every claimed reminder sent');
    const repeats = (await alertsOf(ruleId))[0].repeats;
    await sleep(3 * 2000);
    assert.equal((await alertsOf(ruleId))[0].repeats, repeats, 'no reminder while snoozed');
    const audit = await as('admin', 'GET', '/api/audit?action=alert.snooze');
    assert.ok(
      audit.body.results.some((r: any) => r.target.includes(alert.id) && r.detail.hours === 1),
      audit.text,
    );

    await setDisabled(w, false);
    await eventually(async () => mine().some((s) => /^\[resolved\] /.test(s.body.text)), 30_000, 'the resolved message');
    const [cleared] = await alertsOf(ruleId);
    assert.ok(cleared.clearedAt);
    assert.equal(cleared.snoozedUntil, null, 'resolution ends the snooze');
    assert.equal(cleared.clearedPost.status, 200);
    const late = await as('operator', 'POST', `/api/alerts/${alert.id}/acknowledge`, {});
    assert.equal(late.status, 409, 'a cleared alert cannot be acknowledged');
  });

  test('control characters in webhook data (and a rule name) reach no alert text as line breaks: e-mail, Slack and the signed POST each get one line', async () => {
    // Issue 49, item 7: a webhook's description became extra lines of the e-mail body that looked like headers.
    const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
    const tail = `\r\nBcc: attacker@evil.test\r\nX-Injected: yes\n\u0085\u2028\u0007\u001b[31m\u009b\u0001 end`;
    const ep = receiver.endpoint(() => ({ status: 200 }));
    const made = await call(app, 'POST', '/v1/webhooks', {
      token: tok,
      body: { url: ep.url, eventTypes: ['message.attempt.exhausted'], description: `ctl ${Date.now()}${tail}` },
    });
    assert.equal(made.status, 201, made.text);
    const w = made.body.id as string;
    const target = receiver.endpoint(() => ({ status: 200 }));
    const name = 'ctl\u0007 rule\r\nX-Rule: injected';
    const ruleIds = {
      email: await rule({ name, webhookId: w, targetUrl: 'mailto:ctl@example.org' }),
      slack: await rule({ name, webhookId: w, targetUrl: slackUrl, targetFormat: 'slack' }),
      standard: await rule({ name, webhookId: w, targetUrl: target.url }),
    };
    await setDisabled(w, true);
    await Promise.all(Object.values(ruleIds).map((id) => firing(id, `webhook:${w}`)));
    await setDisabled(w, false);

    const mail = await eventually(async () => mails().find((m) => m.to.includes('ctl@example.org')), 15_000, 'the e-mail');
    const [head, ...rest] = mail.raw.split('\r\n\r\n');
    assert.doesNotMatch(head, /^(Bcc|X-Injected|X-Rule):/im, 'no header made of data');
    const body = mailText(head, rest.join('\r\n\r\n'));
    assert.doesNotMatch(body, /^(Bcc|X-Injected|X-Rule):/m, `no line of the body made of data:\n${body}`);
    assert.match(body, /^Webhook: ctl \d+ +Bcc: attacker@evil\.test +X-Injected: yes +\[31m +end$/m, body);
    assert.ok(
      body.split('\n').every((line) => !CONTROLS.test(line.replace(/\r$/, ''))),
      JSON.stringify(body),
    );
    assert.match(mail.subject, /^\[firing\] ctl +rule +X-Rule: injected: ctl \d+ +Bcc: attacker/, mail.subject);

    const fromSlack = await eventually(
      async () => slack.find((m) => JSON.stringify(m.body).includes(w) && /^\[firing\]/.test(m.body?.text)),
      15_000,
      'the Slack message',
    );
    assert.equal(fromSlack.valid, true);
    assert.doesNotMatch(fromSlack.body.text, CONTROLS, fromSlack.body.text);
    const fields = fromSlack.body.blocks.flatMap((b: any) => b.fields ?? []).map((f: any) => f.text as string);
    const description = fields.find((f: string) => f.startsWith('*Webhook*\n'));
    assert.ok(description, JSON.stringify(fields));
    assert.doesNotMatch(description.slice('*Webhook*\n'.length), CONTROLS, 'the value on one line (the template keeps its own line break)');

    const post = await eventually(async () => target.requests()[0], 15_000, 'the signed POST');
    const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
    const json = JSON.parse(post.body);
    assert.match(json.data.details.description, /^ctl \d+ +Bcc: attacker@evil\.test/);
    assert.deepEqual(
      strings(json).filter((v) => CONTROLS.test(v)),
      [],
      'no string of the signed body holds a control character',
    );
  });

  test('bad targets are refused with the field named, and nothing is created', async () => {
    const count = (await as('admin', 'GET', '/api/alert-rules')).body.results.length;
    for (const [body, field] of [
      [{ targetUrl: 'mailto:' }, 'targetUrl'],
      [{ targetUrl: 'mailto:not-an-address' }, 'targetUrl'],
      [{ targetUrl: 'mailto:a@example.org?subject=x' }, 'targetUrl'],
      [{ targetUrl: 'mailto:a@example.org', targetFormat: 'slack' }, 'targetFormat'],
      [{ targetUrl: slackUrl, targetFormat: 'teams' }, 'targetFormat'],
    ] as const) {
      const res = await as('admin', 'POST', '/api/alert-rules', { name: 'bad', kind: 'webhook_disabled', ...body });
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
      assert.equal(res.body.errors[0].path, field, res.text);
    }
    assert.equal((await as('operator', 'POST', '/api/alert-rules', { name: 'x', kind: 'webhook_disabled', targetUrl: 'mailto:a@example.org' })).status, 403);
    assert.equal((await as('viewer', 'POST', '/api/alert-rules', { name: 'x', kind: 'webhook_disabled', targetUrl: 'mailto:a@example.org' })).status, 403);
    assert.equal((await as('admin', 'GET', '/api/alert-rules')).body.results.length, count);
  });

  test('alert rules through the API: 201 (a mailto: rule has no signing secret), 400 naming each field, 403 below admin; the form says where the e-mail goes', async () => {
    // Issue 50 item 5: a mailto: rule said "Copy its signing secret now", which means nothing for e-mail.
    const made = await as('admin', 'POST', '/api/alert-rules', {
      name: 'on call by API',
      kind: 'about_to_disable',
      threshold: 75,
      targetUrl: 'mailto:oncall@example.org',
      enabled: false,
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.rule.targetFormat, 'email');
    assert.equal(made.body.secret, null, 'an e-mail is not signed: no secret to keep');
    const signed = await as('admin', 'POST', '/api/alert-rules', {
      name: 'signed by API',
      kind: 'failure_streak',
      threshold: 5,
      targetUrl: receiver.endpoint(() => ({ status: 200 })).url,
      enabled: false,
    });
    assert.equal(signed.status, 201, signed.text);
    assert.match(signed.body.secret, /^whsec_/);
    const bad = await as('admin', 'POST', '/api/alert-rules', { name: '', kind: 'about_to_disable', threshold: 100, targetUrl: 'mailto:oncall@example.org' });
    assert.equal(bad.status, 400, bad.text);
    assert.deepEqual(bad.body.errors.map((e: { path: string }) => e.path).sort(), ['name', 'threshold'], bad.text);
    assert.equal((await as('viewer', 'POST', '/api/alert-rules', { name: 'x', kind: 'webhook_disabled', targetUrl: 'mailto:a@example.org' })).status, 403);

    const { chromium } = await import('playwright');
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
    try {
      const context = await browser.newContext();
      const [name, value] = cookies.admin.split('=');
      await context.addCookies([{ name, value, url: app.baseUrl }]);
      const tab = await context.newPage();
      // Playwright's 30 s is not enough at CI's load: in the rehearsals at 7f55976 and 5bd9887 (the embedded pass at a load
      // of ~25, this app's evaluator running every 200 ms) the page's load, then the rule's answer, each took longer.
      tab.setDefaultTimeout(90_000);
      tab.setDefaultNavigationTimeout(90_000);
      await tab.goto(`${app.baseUrl}/alerts`);
      // Its scripts loaded and run: a click before the form is hydrated posts it without them, and the
      // page then has no "Rule created" (CI's embedded pass, at a load of ~30, waited 30 s for it).
      await tab.waitForLoadState('networkidle');
      const form = tab.getByRole('form', { name: 'Create an alert rule' });
      await form.getByLabel('Name').fill('team by mail');
      await form.getByLabel('When').selectOption('webhook_disabled');
      await form.getByLabel('Send to', { exact: true }).fill('mailto:team@example.org');
      await tab.getByRole('button', { name: 'Create rule' }).click();
      await tab.getByText('Rule created').waitFor();
      const said = await tab.locator('main').innerText();
      assert.doesNotMatch(said, /signing secret|whsec_/, said);
      assert.match(said, /Rule “team by mail” created\. Its alerts are sent by e-mail to team@example\.org\./);
    } finally {
      await browser.close();
    }
    const rules = (await as('admin', 'GET', '/api/alert-rules')).body.results as { id: string; name: string }[];
    for (const r of rules.filter((x) => ['team by mail', 'on call by API', 'signed by API'].includes(x.name)))
      assert.equal((await as('admin', 'DELETE', `/api/alert-rules/${r.id}`)).status, 204);
  });
});
