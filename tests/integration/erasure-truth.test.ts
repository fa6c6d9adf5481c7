// Own app: a retry schedule with a long second step.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, type TApp } from '../helpers/app';
import { screenshotPages } from '../helpers/screenshots';
import { call, eventually, staffCookie, token } from '../helpers/http';

// What the console and the service say after a donor erasure (issue 38), through both halves over
// HTTP: a grant delivered to a console receiver, and to a receiver that answers 500 — attempt 2 of 8
// failed, the next due in 5 minutes — when the donor is erased. The erasure stops those retries and
// every view says why ("retries stopped: donor data erased on DATE": the service's EXT
// retriesStopped, the timeline, the case, Problems); Recover does not offer it; the case keeps its
// grant card (amount, fee, fund, status, ids, Connect, times) with the donor shown as erased, and so
// does the evidence export; bodies an erasure removed read "erased on DATE (donor erasure)", never
// "purged … retention". ERASURE_SCREENSHOTS=dir saves the case page at 1280 and 390 px.

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const DONOR = `grace-${randomBytes(3).toString('hex')}@example.org`;
const DAY = new Date().toISOString().slice(0, 10);

let app: TApp;
let tok = '';
let cookie = '';
let failing: http.Server;
let failingHits = 0;
const ids = { grant: '', tracking: '', message: '', okHook: '', badHook: '', connect: '' };

const api = (method: string, p: string, body?: unknown, headers?: Record<string, string>) => call(app, method, p, { token: tok, body, headers });
const staff = (method: string, p: string, body?: unknown) => call(app, method, p, { body, headers: { cookie } });

before(
  async () => {
    // The contract's schedule, with its first retry after 1 s rather than 5: attempt 3 is due 5 min after attempt 2.
    app = await startApp({ env: { DELIVERY_RETRY_SCHEDULE: '1,300,1800,7200,18000,36000,36000' } });
    tok = await token(app);
    cookie = await staffCookie(app);
    failing = http.createServer((req, res) => {
      failingHits++;
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(`database down for ${DONOR}`));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const receiver = await staff('POST', '/api/receivers', { name: 'Erasure truth', secret: SECRET });
    assert.equal(receiver.status, 201, receiver.text);
    const ok = await api('POST', '/v1/webhooks', {
      url: receiver.body.ingestUrl,
      eventTypes: ['grant.succeeded'],
      secret: SECRET,
      description: 'console receiver',
    });
    assert.equal(ok.status, 201, ok.text);
    ids.okHook = ok.body.id;
    const bad = await api('POST', '/v1/webhooks', {
      url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hook`,
      eventTypes: ['grant.succeeded'],
      description: 'answers 500',
    });
    assert.equal(bad.status, 201, bad.text);
    ids.badHook = bad.body.id;
    const ein = `47${String(randomInt(0, 1e7)).padStart(7, '0')}`;
    const np = await api('POST', '/v1/nonprofits', { ein, user: { email: 'director@example.org' } });
    assert.equal(np.status, 201, np.text);
    const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
    ids.connect = created.body.id;
    const { apiKey } = (await api('GET', `/v1/connects/${ids.connect}`)).body;
    const g = await api(
      'POST',
      '/v1/grants',
      { amount: 5000, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email: DONOR },
      { 'x-service-api-key': apiKey },
    );
    assert.equal(g.status, 201, g.text);
    Object.assign(ids, { grant: g.body.id, tracking: g.body.trackingId });
    // The first attempt fails, its retry fails too; the third is due in about 5 minutes.
    await eventually(
      async () => {
        const list = await api('GET', `/v1/webhooks/${ids.badHook}/messages?pageLimit=5`);
        const m = list.body.results[0];
        ids.message = m?.id ?? '';
        return m?.attemptCount === 2 && m.status === 'pending' && Date.parse(m.nextAttempt) - Date.now() > 60_000;
      },
      60_000,
      'two failed attempts, the next minutes away',
    );
    await eventually(
      async () => (await api('GET', `/v1/webhooks/${ids.okHook}/messages/${ids.message}`)).body.status === 'success',
      30_000,
      'delivered to the console receiver',
    );
  },
  { timeout: 120_000 },
);

after(async () => {
  await app?.destroy();
  failing?.close();
});

describe('after a donor erasure', () => {
  test('the service stops the retries and says why; its attempts say the erasure emptied them', async () => {
    const done = await staff('POST', '/api/erasures', { email: DONOR });
    assert.equal(done.status, 200, done.text);
    assert.equal(done.body.service.grants.erased, 1);

    const m = await api('GET', `/v1/webhooks/${ids.badHook}/messages/${ids.message}`);
    assert.equal(m.status, 200, m.text);
    assert.equal(m.body.status, 'failed');
    assert.equal(m.body.nextAttempt, null);
    assert.equal(m.body.attemptCount, 2);
    assert.equal(m.body.retriesStopped?.reason, 'donor_erased');
    assert.equal(m.body.retriesStopped.at.slice(0, 10), DAY);
    const delivered = await api('GET', `/v1/webhooks/${ids.okHook}/messages/${ids.message}`);
    assert.equal(delivered.body.status, 'success');
    assert.equal(delivered.body.retriesStopped, null, 'a delivery that had succeeded was not stopped');

    const detail = await api('GET', `/v1/messages/${ids.message}?withAttempts=true`);
    assert.equal(detail.status, 200, detail.text);
    const bad = detail.body.deliveries.find((d: { webhookId: string }) => d.webhookId === ids.badHook);
    assert.equal(bad.retriesStopped.reason, 'donor_erased');
    assert.equal(bad.lastAttempt.response, '');
    assert.equal(bad.lastAttempt.responsePurged.reason, 'erasure');
    const attempt = await api('GET', `/v1/webhooks/${ids.badHook}/messages/${ids.message}/attempts/${bad.lastAttempt.id}`);
    assert.equal(attempt.status, 200, attempt.text);
    assert.equal(attempt.body.responsePurged.reason, 'erasure');
    // The grant keeps what is not the donor.
    const grant = await api('GET', `/v1/grants/${ids.grant}`);
    assert.equal(grant.body.amount, 5000);
    assert.match(grant.body.firstName, /^erased:/);

    // No further attempt is made, and Recover has nothing to re-send: the payload is gone.
    const hits = failingHits;
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const preview = await api('GET', `/v1/webhooks/${ids.badHook}/recover?since=${encodeURIComponent(since)}`);
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.body.messages, 0, 'a stopped delivery is not offered to recover');
    const run = await api('POST', `/v1/webhooks/${ids.badHook}/recover`, { since });
    assert.equal(run.status, 202, run.text);
    assert.equal(run.body.messages, 0);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(failingHits, hits, 'nothing was sent again');
    assert.equal((await api('GET', `/v1/webhooks/${ids.badHook}/messages/${ids.message}`)).body.attemptCount, 2);
  });

  test('the timeline, the case and Problems say "retries stopped: donor data erased on DATE", never "no retries left" or "retention"', async () => {
    const stopped = new RegExp(`retries stopped: donor data erased on ${DAY}$`);
    const timeline = await staff('GET', `/api/webhooks/${ids.badHook}/timeline`);
    assert.equal(timeline.status, 200, timeline.text);
    const row = timeline.body.messages.find((x: { id: string }) => x.id === ids.message);
    assert.match(row.explanation, stopped);
    assert.match(row.explanation, /500 \(its body erased\)/);
    assert.equal(row.retriesStopped.reason, 'donor_erased');

    const kase = await staff('GET', `/api/search?q=${ids.tracking}`);
    assert.equal(kase.status, 200, kase.text);
    const message = kase.body.messages[0];
    assert.equal(message.payloadGone.note, `payload erased on ${DAY} (donor erasure)`);
    const byHook = new Map(message.deliveries.map((d: { webhook: { id: string } }) => [d.webhook.id, d]));
    const badDelivery = byHook.get(ids.badHook) as { explanation: string; attempts: { responseGone?: { note: string } }[]; retriesStopped: { reason: string } };
    assert.match(badDelivery.explanation, stopped);
    assert.equal(badDelivery.retriesStopped.reason, 'donor_erased');
    for (const a of badDelivery.attempts.filter((x) => x.responseGone)) assert.equal(a.responseGone!.note, `response body erased on ${DAY} (donor erasure)`);
    assert.ok(
      badDelivery.attempts.some((x) => x.responseGone),
      'the newest attempt says its body was erased',
    );
    const okDelivery = byHook.get(ids.okHook) as { reconciliation: string; receipts: { bodyGone?: { note: string } }[] };
    assert.equal(okDelivery.reconciliation, 'delivered-and-received');
    assert.equal(okDelivery.receipts[0].bodyGone?.note, `body erased on ${DAY} (donor erasure)`);
    const text = JSON.stringify(kase.body);
    assert.doesNotMatch(text, /no retries left|\(retention|purged on/, 'an erasure is not retention');

    const problems = await staff('GET', '/api/problems');
    assert.equal(problems.status, 200, problems.text);
    const item = problems.body.items.find((x: { id: string; webhookId: string }) => x.id === ids.message && x.webhookId === ids.badHook);
    assert.ok(item, JSON.stringify(problems.body.items.map((x: { id: string }) => x.id)));
    assert.match(item.explanation, stopped);
    const group = problems.body.groups.find((g: { webhook: { id: string } }) => g.webhook.id === ids.badHook);
    assert.deepEqual(
      group.counts.map((c: { label: string }) => c.label),
      ['failed (no further attempts)'],
    );
  });

  test('a delivered message whose payload was erased offers no Resend, and says why in its place', async () => {
    const note = `payload erased on ${DAY} (donor erasure): nothing to re-send`;
    // What the console would have offered: the service refuses it.
    const refused = await api('POST', `/v1/webhooks/${ids.okHook}/messages/${ids.message}/resend`);
    assert.equal(refused.status, 409, refused.text);
    // The message page (server-rendered): the note where the button was.
    const page = await call(app, 'GET', `/webhooks/${ids.okHook}/messages/${ids.message}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    const html = page.text.replaceAll('<!-- -->', ''); // React's marker between two text parts
    assert.match(html, new RegExp(`data-testid="resend-unavailable"[^>]*>${note.replace(/[()]/g, '\\$&')}<`));
    assert.doesNotMatch(page.text, />Resend</, 'no Resend button');
    // The timeline's opened row decides from the message detail it reads: the payload's tombstone.
    const detail = await staff('GET', `/api/webhooks/${ids.okHook}/messages/${ids.message}`);
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.message.status, 'success');
    assert.equal(detail.body.message.retriesStopped, null, 'delivered: no retries were stopped');
    assert.equal(Object.keys(detail.body.message.payload).join(), 'erased');
    assert.equal(detail.body.message.payload.erased.at.slice(0, 10), DAY);
  });

  test('the case keeps its grant card, the donor shown as erased; the evidence export keeps its grant', async () => {
    for (const q of [ids.tracking, ids.grant, ids.message]) {
      const kase = await staff('GET', `/api/search?q=${q}`);
      assert.equal(kase.status, 200, kase.text);
      assert.equal(kase.body.grants.length, 1, `the grant card of ${q}`);
      const g = kase.body.grants[0];
      assert.deepEqual(
        [g.id, g.trackingId, g.amount, g.fundId, g.connectId, g.source],
        [ids.grant, ids.tracking, 5000, 'fidelity-charitable', ids.connect, 'api'],
      );
      assert.match(g.status, /^(Initiated|Completed|Canceled)$/);
      assert.equal(typeof g.feeAmount, 'number');
      assert.ok(g.createdAt);
      assert.deepEqual([g.firstName, g.lastName, g.email], ['erased', 'erased', 'erased']);
      assert.equal(g.erasedAt.slice(0, 10), DAY);
    }
    const page = await call(app, 'GET', `/cases/${ids.tracking}`, { headers: { cookie } });
    assert.equal(page.status, 200);
    assert.match(page.text, /data-testid="case-grant"/);
    assert.match(page.text, /\$50\.00/);
    assert.match(page.text, new RegExp(`erased on ${DAY} \\(donor erasure\\)`));
    assert.match(page.text, /retries stopped: donor data erased on/);
    assert.doesNotMatch(page.text, /Grace|Hopper|purged on/);

    const bundle = await staff('GET', `/api/cases/${ids.tracking}/export`);
    assert.equal(bundle.status, 200, bundle.text);
    const exported = typeof bundle.body === 'string' ? JSON.parse(bundle.body) : bundle.body;
    const grants = exported.case?.grants ?? exported.grants;
    assert.equal(grants.length, 1, 'the evidence keeps the grant');
    assert.equal(grants[0].amount, 5000);
    assert.doesNotMatch(JSON.stringify(exported), new RegExp(DONOR));

    if (process.env.ERASURE_SCREENSHOTS) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'erasure-shots-'));
      await screenshotPages(app, cookie, dir, [`/cases/${ids.tracking}`]);
      fs.mkdirSync(process.env.ERASURE_SCREENSHOTS, { recursive: true });
      for (const width of [1280, 390])
        fs.copyFileSync(path.join(dir, `cases-${width}.png`), path.join(process.env.ERASURE_SCREENSHOTS, `truth-case-erased-${width}.png`));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
