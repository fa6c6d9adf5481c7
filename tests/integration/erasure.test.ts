// Own app: it greps every column of its own store for the erased e-mail, behind the app's back.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { startApp, withAppDb, type TApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';

// One donor erased across both halves (POST /api/erasures → EXT POST /v1/erasures): two grants of
// one donor (the e-mail in two cases) delivered through two webhooks to two receivers, a stray
// request that names the donor, and another donor left alone. The preview counts and changes
// nothing; the erasure's report counts match; a second one finds nothing left; afterwards the
// e-mail appears in no text, bytea, jsonb or array column of either schema; the case still
// reconciles and says "payload erased on DATE (donor erasure)"; the audit log has the hash, not the e-mail. The
// stray request was forwarded to an echo server first: the kept reply goes with it.

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const DONOR = `erase-me-${randomBytes(4).toString('hex')}@example.org`;
const OTHER = `keep-me-${randomBytes(4).toString('hex')}@example.org`;

describe('donor erasure across both halves', () => {
  let app: TApp;
  let tok: string;
  let cookie: string;
  const grants: string[] = [];
  const receiverIds: string[] = [];
  let echo: http.Server;
  let otherGrant = '';
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(app, method, path, { token: tok, body, headers });
  const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });

  before(async () => {
    app = await startApp();
    tok = await token(app);
    cookie = await staffCookie(app);
    const receivers = [];
    for (const name of ['erasure one', 'erasure two']) {
      const r = await staff('POST', '/api/receivers', { name, secret: SECRET });
      assert.equal(r.status, 201, r.text);
      receivers.push(r.body as { slug: string; ingestUrl: string });
      receiverIds.push(r.body.id);
      const w = await api('POST', '/v1/webhooks', { url: r.body.ingestUrl, eventTypes: ['grant.succeeded'], secret: SECRET });
      assert.equal(w.status, 201, w.text);
    }
    const ein = `47${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const np = await api('POST', '/v1/nonprofits', { ein, user: { email: 'director@example.org' } });
    const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
    const { apiKey } = (await api('GET', `/v1/connects/${created.body.id}`)).body;
    for (const [email, note] of [
      [DONOR.toUpperCase(), `call ${DONOR} first`],
      [DONOR, null],
      [OTHER, null],
    ] as const) {
      const g = await api(
        'POST',
        '/v1/grants',
        { amount: 5000, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: 'Byron', email, phone: '5555550123', note },
        { 'x-service-api-key': apiKey },
      );
      assert.equal(g.status, 201, g.text);
      if (email === OTHER) otherGrant = g.body.id;
      else grants.push(g.body.id);
    }
    // A stray request at a receiver that names the donor (no webhook id: matched by its body).
    await fetch(`${app.baseUrl}/ingest/${receivers[0].slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contact: DONOR }),
    });
    await eventually(
      async () => {
        let valid = 0;
        for (const id of receiverIds)
          valid += (await staff('GET', `/api/receivers/${id}/receipts`)).body.results.filter((r: { verdict: string }) => r.verdict === 'valid').length;
        return valid === 6;
      },
      30_000,
      'three grants delivered to both receivers',
    );
    // The stray request forwarded to a server that echoes it: the reply (kept beside the receipt) names the donor too.
    echo = http.createServer((req, res) => req.pipe(res));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    const stray = (await staff('GET', `/api/receivers/${receiverIds[0]}/receipts?q=contact`)).body.results[0];
    const forwarded = await staff('POST', `/api/receipts/${stray.id}/forward`, {
      url: `http://127.0.0.1:${(echo.address() as AddressInfo).port}/echo`,
      mode: 'verbatim',
    });
    assert.equal(forwarded.status, 201, forwarded.text);
    assert.ok(forwarded.body.responseBody.includes(DONOR), 'the echoed reply names the donor');
  });
  after(async () => {
    await app?.destroy();
    echo?.close();
  });

  test('preview, erase, erase again: counts match, the donor is nowhere, the case still reconciles', async () => {
    const preview = await staff('POST', '/api/erasures', { email: DONOR, dryRun: true });
    assert.equal(preview.status, 200, preview.text);
    assert.deepEqual(
      [preview.body.service.grants.erased, preview.body.service.messages.erased, preview.body.console.receipts.erased],
      [2, 2, 5],
      'two grants, their two messages, four arrivals and the stray one',
    );
    assert.equal((await api('GET', `/v1/grants/${grants[1]}`)).body.email, DONOR, 'a preview changes nothing');

    assert.equal((await staff('POST', '/api/erasures', { email: 'not an email' })).status, 400);
    assert.equal((await staff('POST', '/api/erasures', { email: DONOR, grantId: grants[0] })).status, 400);

    const done = await staff('POST', '/api/erasures', { email: DONOR });
    assert.equal(done.status, 200, done.text);
    assert.deepEqual(
      [done.body.service.grants.erased, done.body.service.messages.erased, done.body.service.attempts.erased, done.body.console.receipts.erased],
      [2, 2, 4, 5],
    );
    assert.equal(done.body.service.messageIds.length, 2);
    const again = await staff('POST', '/api/erasures', { email: DONOR.toUpperCase() });
    assert.deepEqual(
      [again.body.service.grants.found, again.body.service.grants.erased, again.body.service.messages.erased, again.body.console.receipts.erased],
      [2, 0, 0, 0],
      'a second request finds the same donor and nothing left to erase',
    );

    const grant = (await api('GET', `/v1/grants/${grants[0]}`)).body;
    assert.match(grant.email, /^erased:[0-9a-f]{64}$/);
    assert.equal(grant.amount, 5000, 'what is not the donor stays');
    assert.equal((await api('GET', `/v1/grants/${otherGrant}`)).body.email, OTHER, 'another donor is left alone');

    const kase = await staff('GET', `/api/search?q=${grants[0]}`);
    assert.equal(kase.status, 200, kase.text);
    const message = kase.body.messages[0];
    assert.match(message.payloadGone.note, /^payload erased on \d{4}-\d\d-\d\d \(donor erasure\)$/);
    assert.deepEqual(
      message.deliveries.map((d: { reconciliation: string }) => d.reconciliation),
      ['delivered-and-received', 'delivered-and-received'],
    );

    const audit = await staff('GET', '/api/audit?action=donor.erase');
    assert.equal(audit.body.results.length, 2, 'the erasures are audited (previews are not)');
    assert.equal(JSON.stringify(audit.body).includes(DONOR), false, 'the audit log has the hash, not the e-mail');

    // Every text, bytea, jsonb and array column of both schemas, grepped for the e-mail.
    // One look at the store, the file's last: on the embedded store the app stops for it and stays stopped.
    const [columns, hits] = await withAppDb(
      app,
      async (query) => {
        const found = await query<{ s: string; t: string; c: string; type: string }>(
          `select c.table_schema as s, c.table_name as t, c.column_name as c, c.data_type as type from information_schema.columns c
           join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
          where c.table_schema in ('service', 'console') and c.data_type in ('text', 'bytea', 'jsonb', 'ARRAY', 'character varying')`,
        );
        const expr = (c: { c: string; type: string }) => (c.type === 'bytea' ? `encode("${c.c}", 'escape')` : `"${c.c}"::text`);
        return [
          found,
          await query<{ at: string }>(
            found.map((c) => `select '${c.s}.${c.t}.${c.c}' as at from "${c.s}"."${c.t}" where lower(${expr(c)}) like '%${DONOR}%'`).join(' union all '),
          ),
        ] as const;
      },
      { leaveStopped: true },
    );
    assert.ok(columns.length > 40, `${columns.length} columns`);
    assert.deepEqual(hits, [], 'the donor e-mail appears nowhere');
  });
});
