// Own app: retention of seconds (RECEIPT_BODY_RETENTION, MESSAGE_PAYLOAD_RETENTION 5 s), which would purge other files' bodies.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startApp, type TApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { screenshotPages } from '../helpers/screenshots';

// @ci-one-store: CI runs this file in the embedded-store pass only (what the views say where a body was
// is the same on any store (the purge itself runs on PostgreSQL in retention.test.ts)).
// What the views say where retention took a body: a grant delivered to this console's receiver,
// its payload, its attempt's answer and the receipt's body purged after 5 s. The receipt page and
// JSON, the message page, the timeline, the case page and JSON, and the exports (CSV, NDJSON, the
// case bundle) answer on the skeleton and say "… purged on DATE (retention 5s)" where the body
// was; after an erasure the case says "payload erased on DATE (donor erasure)". With RETENTION_SCREENSHOTS=dir
// it also saves the receipt and case pages at 1280 and 390 px.

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const DONOR = `views-${randomBytes(4).toString('hex')}@example.org`;
const DAY = String.raw`\d{4}-\d\d-\d\d`;
const PURGED = (what: string) => new RegExp(`${what} purged on ${DAY} \\(retention 5s\\)`);
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

describe('retention: every view answers on a skeleton and says where the body went', () => {
  let app: TApp;
  let cookie: string;
  let webhookId = '';
  let messageId = '';
  let receiptId = 0;
  let bodyHash = '';
  const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
  const page = async (path: string) => {
    const res = await fetch(`${app.baseUrl}${path}`, { headers: { cookie } });
    assert.equal(res.status, 200, path);
    // React separates text nodes with comments; the sentence is what a reader sees.
    return (await res.text()).replaceAll('<!-- -->', '');
  };

  before(async () => {
    app = await startApp({ env: { RECEIPT_BODY_RETENTION: '5s', MESSAGE_PAYLOAD_RETENTION: '5s', RETENTION_HOLD_MAX: '1d' } });
    const tok = await token(app);
    cookie = await staffCookie(app);
    const r = await staff('POST', '/api/receivers', { name: 'views', secret: SECRET });
    assert.equal(r.status, 201, r.text);
    const w = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: r.body.ingestUrl, eventTypes: ['grant.succeeded'], secret: SECRET } });
    assert.equal(w.status, 201, w.text);
    webhookId = w.body.id;
    const ein = `48${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const np = await call(app, 'POST', '/v1/nonprofits', { token: tok, body: { ein, user: { email: 'director@example.org' } } });
    const created = await call(app, 'POST', `/v1/connects?nonprofit=${np.body.id}`, { token: tok });
    const { apiKey } = (await call(app, 'GET', `/v1/connects/${created.body.id}`, { token: tok })).body;
    const g = await call(app, 'POST', '/v1/grants', {
      token: tok,
      body: { amount: 2500, fundId: 'fidelity-charitable', firstName: 'Grace', lastName: 'Hopper', email: DONOR },
      headers: { 'x-service-api-key': apiKey },
    });
    assert.equal(g.status, 201, g.text);
    const [row] = await eventually(
      async () => {
        const rows = (await staff('GET', `/api/receivers/${r.body.id}/receipts`)).body.results as
          { id: number; messageId: string; verdict: string }[] | undefined;
        return rows?.length ? rows : null;
      },
      30_000,
      'the grant delivered to the receiver',
    );
    assert.equal(row.verdict, 'valid');
    receiptId = row.id;
    messageId = row.messageId;
    const before = await staff('GET', `/api/receipts/${receiptId}`);
    bodyHash = sha(Buffer.from(before.body.body as string, 'base64'));
    assert.equal(before.body.bodyGone, null, 'kept while young');
  });
  after(async () => app?.destroy());

  test('the bodies go after 5 s, and every view says so', async () => {
    // Watched through the views themselves, without restarting the app between looks (the purge runs on
    // its own timer): an attempt's answer read before the purge must not stay in the console's memory.
    await eventually(
      async () => {
        const [receipt, detail, kase] = await Promise.all([
          staff('GET', `/api/receipts/${receiptId}`),
          staff('GET', `/api/webhooks/${webhookId}/messages/${messageId}`),
          staff('GET', `/api/search?q=${messageId}`),
        ]);
        return Boolean(receipt.body.bodyGone && detail.body.attempts?.at(-1)?.responseGone && kase.body.messages?.[0]?.payloadGone);
      },
      60_000,
      'the receipt body, the payload and the answer purged',
    );

    const receipt = await staff('GET', `/api/receipts/${receiptId}`);
    assert.equal(receipt.status, 200);
    assert.equal(receipt.body.body, null);
    assert.match(receipt.body.bodyGone.note, PURGED('^body'));
    assert.equal(receipt.body.bodyGone.sha256, bodyHash, 'the SHA-256 of the body as it was stored');
    const receiptPage = await page(`/receipts/${receiptId}`);
    assert.match(receiptPage, PURGED('body'));
    assert.match(receiptPage, /nothing is left to check again/, 'no signature check is re-run on a skeleton');

    const kase = await staff('GET', `/api/search?q=${messageId}`);
    assert.equal(kase.status, 200);
    const m = kase.body.messages[0];
    assert.match(m.payloadGone.note, PURGED('^payload'));
    const d = m.deliveries.find((x: { webhook: { id: string } }) => x.webhook.id === webhookId);
    assert.equal(d.reconciliation, 'delivered-and-received', 'the skeleton still reconciles');
    assert.match(d.attempts.at(-1).responseGone.note, PURGED('^response body'));
    assert.match(d.receipts[0].bodyGone.note, PURGED('^body'));
    const casePage = await page(`/cases/${messageId}`);
    for (const what of ['payload', 'response body', 'body']) assert.match(casePage, PURGED(what), `the case page says the ${what} was purged`);

    const detail = await staff('GET', `/api/webhooks/${webhookId}/messages/${messageId}`);
    assert.equal(detail.status, 200, detail.text);
    assert.match(detail.body.attempts.at(-1).responseGone.note, PURGED('^response body'));
    const messagePage = await page(`/webhooks/${webhookId}/messages/${messageId}`);
    assert.match(messagePage, PURGED('payload'));
    assert.match(messagePage, PURGED('response body'));
    const timeline = await staff('GET', `/api/webhooks/${webhookId}/timeline`);
    assert.match(timeline.body.messages[0].receipts[0].bodyGone.note, PURGED('^body'));
  });

  test('exports on skeletons say the body was purged', async () => {
    const csv = await staff('GET', `/api/webhooks/${webhookId}/export?format=csv&includeDonor=1`);
    assert.equal(csv.status, 200, csv.text);
    const [row] = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.equal(row.messageId, messageId);
    assert.equal(row.donor, '', 'no donor left to name');
    assert.match(row.bodiesGone, PURGED('^payload'));
    assert.match(row.bodiesGone, new RegExp(`receipt #${receiptId}: ${PURGED('body').source}`));
    const ndjson = await fetch(`${app.baseUrl}/api/webhooks/${webhookId}/export?format=ndjson`, { headers: { cookie } }).then((r) => r.text());
    const line = JSON.parse(ndjson.trim());
    assert.match(line.payloadGone, PURGED('^payload'));
    assert.ok(line.payload.purged.sha256, 'the payload is its tombstone');
    assert.ok(line.attempts.length >= 1, 'the attempts, without bodies (an export never carries answers)');
    assert.match(line.receipts[0].bodyGone.note, PURGED('^body'));
    const bundle = await staff('GET', `/api/cases/${messageId}/export`);
    assert.equal(bundle.status, 200, bundle.text);
    const exported = bundle.body.case.messages[0];
    assert.match(exported.payloadGone.note, PURGED('^payload'), 'the note is no donor detail: kept when they are redacted');
    assert.match(exported.deliveries[0].attempts.at(-1).responseGone.note, PURGED('^response body'));
    assert.match(exported.deliveries[0].receipts[0].bodyGone.note, PURGED('^body'));
    if (process.env.RETENTION_SCREENSHOTS)
      await screenshotPages(app, cookie, process.env.RETENTION_SCREENSHOTS, [`/receipts/${receiptId}`, `/cases/${messageId}`]);
  });

  test('after an erasure the case says payload erased on DATE (donor erasure)', async () => {
    const erased = await staff('POST', '/api/erasures', { email: DONOR });
    assert.equal(erased.status, 200, erased.text);
    const kase = await staff('GET', `/api/search?q=${messageId}`);
    assert.match(kase.body.messages[0].payloadGone.note, new RegExp(`^payload erased on ${DAY} \\(donor erasure\\)$`));
    assert.match(await page(`/cases/${messageId}`), new RegExp(`payload erased on ${DAY} \\(donor erasure\\)`));
  });
});
