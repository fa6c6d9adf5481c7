// Own app: a retry schedule of one step (messages fail for good at once), the sandbox's webhooks counted exactly, and traces exported to a loopback OTLP receiver.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import harValidator from 'har-validator';
import { ADMIN, startApp } from '../helpers/app';
import { assertProblem, call, eventually, sleep, staffCookie, token } from '../helpers/http';
import { startOtlpReceiver, type TSpan } from '../helpers/otlp-receiver';

// Operations (issue 11): bulk recover (EXT /v1/webhooks/{id}/recover), exports for a ticket (timeline
// CSV/NDJSON, case bundle, receipts HAR) and the audit log, over the real app, worker and a console
// receiver whose answer we switch (500 → failures, then 200 after a delay → a run that takes a while).

type TStarted = Awaited<ReturnType<typeof startApp>>;
let app: TStarted;
let tok: string;
let otherTok: string;
let cookie: string;
const S = `whsec_${randomBytes(32).toString('base64')}`;
let receiverId = '';
let W = '';
let apiKey = '';
let m1 = '';
let mid = '';
let later: string[] = [];
let okMessage = '';
let trackingId = '';
const emails: string[] = [];

const api = (method: string, path: string, body?: unknown, t = tok) => call(app, method, path, { token: t, body });
const staff = (method: string, path: string, body?: unknown) => call(app, method, path, { body, headers: { cookie } });
/** A download read as text (NDJSON's type names json, which the call() helper would try to parse whole). */
const download = async (path: string) => {
  const res = await fetch(`${app.baseUrl}${path}`, { headers: { cookie } });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
};
const statusOf = async (id: string) => (await api('GET', `/v1/webhooks/${W}/messages/${id}`)).body.status as string;

async function grant(i: number): Promise<string> {
  const email = `donor-${i}-${randomBytes(3).toString('hex')}@example.org`;
  emails.push(email);
  const g = await call(app, 'POST', '/v1/grants', {
    token: tok,
    body: { amount: 5000 + i, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: `Lovelace${i}`, email },
    headers: { 'x-service-api-key': apiKey },
  });
  assert.equal(g.status, 201, g.text);
  trackingId ||= g.body.trackingId;
  const m = await eventually(
    async () => (await api('GET', `/v1/messages?tag=grant:${g.body.id}`)).body.results?.[0]?.id as string | undefined,
    10000,
    'the grant message',
  );
  return m;
}

let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;

before(async () => {
  // Traces as JSON, sent every 200 ms (the batch processor's default waits 5 s).
  otlp = await startOtlpReceiver();
  const traces = {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_DELIVERY_TRACEPARENT: 'true',
  };
  app = await startApp({ accounts: ['other'], env: { DELIVERY_RETRY_SCHEDULE: '1', ...traces } });
  [tok, otherTok, cookie] = await Promise.all([token(app), token(app, app.clients.other), staffCookie(app)]);
  const r = await staff('POST', '/api/receivers', { name: 'Ops receiver', secret: S });
  assert.equal(r.status, 201, r.text);
  receiverId = r.body.id;
  assert.equal((await staff('PATCH', `/api/receivers/${receiverId}`, { responseStatus: 500, responseBody: 'database down' })).status, 200);
  const w = await api('POST', '/v1/webhooks', { url: r.body.ingestUrl, eventTypes: ['grant.succeeded'], description: 'ops', secret: S });
  assert.equal(w.status, 201, w.text);
  W = w.body.id;
  const np = await api('POST', '/v1/nonprofits', { ein: `47${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`, user: { email: 'ops@example.org' } });
  const c = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
  apiKey = (await api('GET', `/v1/connects/${c.body.id}`)).body.apiKey;

  // m1 fails before `mid`; two more fail after it; one is delivered; all within the window.
  m1 = await grant(1);
  await eventually(async () => (await statusOf(m1)) === 'failed', 15000, 'm1 failed');
  await sleep(50);
  mid = new Date().toISOString();
  await sleep(50);
  later = [await grant(2), await grant(3)];
  await eventually(async () => (await Promise.all(later.map(statusOf))).every((s) => s === 'failed'), 15000, 'later failed');
  // From now on the receiver answers 200, but only after 2 s: a recover run stays running a while.
  assert.equal((await staff('PATCH', `/api/receivers/${receiverId}`, { responseStatus: 200, responseDelayMs: 2000 })).status, 200);
  okMessage = await grant(4);
  await eventually(async () => (await statusOf(okMessage)) === 'success', 15000, 'the delivered one');
});
after(async () => {
  await app?.stop();
  await otlp?.close();
});

describe('recover', () => {
  test('preview counts only the failed messages of the window; validation 400s name the field; other accounts get 404', async () => {
    const sinceMid = await api('GET', `/v1/webhooks/${W}/recover?since=${encodeURIComponent(mid)}`);
    assert.equal(sinceMid.status, 200, sinceMid.text);
    assert.equal(sinceMid.body.messages, 2);
    const all = await api('GET', `/v1/webhooks/${W}/recover?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`);
    assert.equal(all.body.messages, 3);
    const upToMid = await api(
      'GET',
      `/v1/webhooks/${W}/recover?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&until=${encodeURIComponent(mid)}`,
    );
    assert.equal(upToMid.body.messages, 1);

    const future = new Date(Date.now() + 3600_000).toISOString();
    const cases: [unknown, string][] = [
      [{}, 'since'],
      [{ since: 'yesterday' }, 'since'],
      [{ since: future }, 'since'],
      [{ since: mid, until: mid }, 'until'],
      [{ since: new Date(Date.now() - 15 * 86_400_000).toISOString() }, 'since'],
      [{ since: mid, extra: 1 }, ''],
    ];
    const answers = await Promise.all(cases.map(([body]) => api('POST', `/v1/webhooks/${W}/recover`, body)));
    answers.forEach((res, i) => {
      const p = assertProblem(res, 400);
      if (cases[i][1])
        assert.ok(
          p.errors.some((e: { path: string }) => e.path === cases[i][1]),
          `${JSON.stringify(cases[i][0])} names ${cases[i][1]}: ${res.text}`,
        );
    });
    const query = await api('GET', `/v1/webhooks/${W}/recover?since=${encodeURIComponent(future)}`);
    assert.ok(assertProblem(query, 400).errors.some((e: { path: string }) => e.path === 'since'));

    assertProblem(await api('POST', `/v1/webhooks/${W}/recover`, { since: mid }, otherTok), 404);
    assertProblem(await api('GET', `/v1/webhooks/${W}/recover?since=${encodeURIComponent(mid)}`, undefined, otherTok), 404);
    assertProblem(await api('POST', `/v1/webhooks/ep_2bUnknownUnknownUnknown00000/recover`, { since: mid }), 404);
    const off = await api('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/x', eventTypes: ['grant.succeeded'], disabled: true });
    assertProblem(await api('POST', `/v1/webhooks/${off.body.id}/recover`, { since: mid }), 409, /disabled/);
  });

  test('re-sends only the failed messages of the window, once each; an identical request while it runs gets the same run', async () => {
    const [a, b] = await Promise.all([api('POST', `/v1/webhooks/${W}/recover`, { since: mid }), api('POST', `/v1/webhooks/${W}/recover`, { since: mid })]);
    assert.equal(a.status, 202, a.text);
    assert.equal(b.status, 202, b.text);
    assert.match(a.body.id, /^rcvr_[0-9A-Za-z]{27}$/);
    assert.equal(a.body.messages, 2);
    assert.equal(b.body.id, a.body.id, 'one run for two identical requests');
    assert.equal(a.headers.get('location'), `/v1/webhooks/${W}/recover/${a.body.id}`);
    const again = await api('POST', `/v1/webhooks/${W}/recover`, { since: mid });
    assert.equal(again.body.id, a.body.id);
    assert.equal(again.body.status, 'running');

    const done = await eventually(
      async () => {
        const run = await api('GET', `/v1/webhooks/${W}/recover/${a.body.id}`);
        return run.body.status === 'done' ? run.body : null;
      },
      20000,
      'the run to finish',
    );
    assert.deepEqual(
      { messages: done.messages, remaining: done.remaining, succeeded: done.succeeded, failed: done.failed },
      { messages: 2, remaining: 0, succeeded: 2, failed: 0 },
    );
    assert.ok(done.finishedAt);

    for (const id of later) {
      assert.equal(await statusOf(id), 'success');
      const attempts = (await api('GET', `/v1/webhooks/${W}/messages/${id}/attempts?pageLimit=100`)).body.results;
      assert.equal(attempts.filter((x: { triggerType: string }) => x.triggerType === 'manual').length, 1, 're-sent exactly once');
    }
    assert.equal(await statusOf(m1), 'failed', 'outside the window: untouched');
    const m1Attempts = (await api('GET', `/v1/webhooks/${W}/messages/${m1}/attempts?pageLimit=100`)).body.results;
    assert.equal(m1Attempts.filter((x: { triggerType: string }) => x.triggerType === 'manual').length, 0);
    const okAttempts = (await api('GET', `/v1/webhooks/${W}/messages/${okMessage}/attempts?pageLimit=100`)).body.results;
    assert.equal(okAttempts.length, 1, 'the delivered message is not re-sent');

    const next = await api('POST', `/v1/webhooks/${W}/recover`, { since: mid });
    assert.notEqual(next.body.id, a.body.id, 'a finished run is not reused');
    assert.equal(next.body.messages, 0);
    assert.equal(next.body.status, 'done');
    assertProblem(await api('GET', `/v1/webhooks/${W}/recover/${a.body.id}`, undefined, otherTok), 404);
  });
});

/** ISO 8601 instants as the exports write them. */
const ISO_INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;

/** A sentence in a file: every time in it absolute, none relative to when it was read. */
function assertAbsolute(text: string) {
  const rest = text.replace(ISO_INSTANT, 'ISO');
  assert.doesNotMatch(rest, /\b\d\d:\d\d(:\d\d)?\b|\bin \d+ (s|min|h|d)\b|overdue/, text);
}

describe('exports', () => {
  const secretsIn = (text: string) => [S, apiKey, S.slice(6, 30)].filter((s) => text.includes(s));
  const donorIn = (text: string) => emails.filter((e) => text.includes(e));

  test('CSV parses, has a header row and matches the timeline; donor details redacted unless asked for', async () => {
    const [csv, timeline, withDonor] = await Promise.all([
      staff('GET', `/api/webhooks/${W}/export?format=csv`),
      staff('GET', `/api/webhooks/${W}/timeline?pageLimit=100`),
      staff('GET', `/api/webhooks/${W}/export?format=csv&includeDonor=1`),
    ]);
    assert.equal(csv.status, 200, csv.text);
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csv.headers.get('content-disposition') ?? '', /^attachment; filename=".+\.csv"$/);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    assert.equal(rows.length, timeline.body.messages.length);
    // The same sentences, but a file says ISO instants where the screen says a clock time or "in 3 min".
    assert.deepEqual(
      rows.map((r) => [r.messageId, r.status, r.reconciliation, r.explanation.replace(ISO_INSTANT, (iso) => iso.slice(11, 19))]),
      timeline.body.messages.map((m: { id: string; status: string; reconciliation: string; explanation: string }) => [
        m.id,
        m.status,
        m.reconciliation,
        m.explanation,
      ]),
    );
    for (const r of rows) assertAbsolute(r.explanation);
    assert.ok(
      rows.some((r) => /^delivered.*: arrived \d{4}-\d\d-\d\dT/.test(r.explanation)),
      'an arrival time, in ISO 8601',
    );
    assert.ok(rows.every((r) => r.donor === '[redacted]'));
    assert.deepEqual(secretsIn(csv.text), []);
    assert.deepEqual(donorIn(csv.text), []);
    const donors = (parse(withDonor.text, { columns: true }) as Record<string, string>[]).map((r) => r.donor);
    assert.ok(
      donors.some((d) => /^Ada Lovelace\d <donor-/.test(d)),
      donors.join('|'),
    );

    const failed = parse(
      (await staff('GET', `/api/webhooks/${W}/export?format=csv&status=failed&since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`))
        .text,
      { columns: true },
    ) as Record<string, string>[];
    assert.deepEqual(
      failed.map((r) => r.messageId),
      [m1],
    );
  });

  test('NDJSON: one message per line with its attempts; payload donor fields redacted by default', async () => {
    const [res, withDonor] = await Promise.all([
      download(`/api/webhooks/${W}/export?format=ndjson`),
      download(`/api/webhooks/${W}/export?format=ndjson&includeDonor=1`),
    ]);
    assert.equal(res.status, 200, res.text);
    assert.match(res.type, /^application\/x-ndjson/);
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 4);
    const line = lines.find((l) => l.id === later[0]);
    assert.ok(line.attempts.length >= 3, 'two scheduled attempts and the manual re-send');
    for (const l of lines) assertAbsolute(l.explanation);
    assert.equal(line.payload.data.email, '[redacted]');
    assert.equal(line.payload.data.firstName, '[redacted]');
    assert.ok(line.tags.includes('donor:[redacted]'));
    assert.deepEqual(secretsIn(res.text), []);
    assert.deepEqual(donorIn(res.text), []);
    assert.equal(
      withDonor.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .find((l) => l.id === later[0]).payload.data.firstName,
      'Ada',
    );
  });

  test('bad filters are a 400 naming the parameter; no session is a 401', async () => {
    const bad = await Promise.all(
      [
        'format=xml',
        'format=csv&status=bogus',
        'format=csv&since=garbage',
        'format=csv&since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z',
        'format=csv&includeDonor=yes',
      ].map((q) => staff('GET', `/api/webhooks/${W}/export?${q}`)),
    );
    ['format', 'status', 'since', 'until', 'includeDonor'].forEach((name, i) =>
      assert.ok(
        assertProblem(bad[i], 400).errors.some((e: { path: string }) => e.path === name),
        bad[i].text,
      ),
    );
    for (const path of [`/api/webhooks/${W}/export?format=csv`, `/api/cases/${trackingId}/export`, `/api/receivers/${receiverId}/export`, '/api/audit']) {
      assertProblem(await call(app, 'GET', path), 401);
    }
    const page = await call(app, 'GET', '/audit');
    assert.ok([302, 303, 307].includes(page.status), String(page.status));
    assert.match(page.headers.get('location') ?? '', /\/login/);
  });

  test('HAR of a receiver validates against the HAR 1.2 schema; a case bundle carries the explanation; no secrets', async () => {
    const [har, receipts, bundle] = await Promise.all([
      staff('GET', `/api/receivers/${receiverId}/export`),
      staff('GET', `/api/receivers/${receiverId}/receipts?pageLimit=100`),
      staff('GET', `/api/cases/${trackingId}/export`),
    ]);
    assert.equal(har.status, 200, har.text);
    await harValidator.har(har.body).catch((err: { errors?: unknown }) => assert.fail(`not valid HAR: ${JSON.stringify(err.errors)}`));
    assert.equal(har.body.log.version, '1.2');
    assert.equal(har.body.log.entries.length, receipts.body.results.length);
    assert.ok(har.body.log.entries[0].request.url.includes('/ingest/'));
    assert.deepEqual(secretsIn(har.text), []);
    assert.deepEqual(donorIn(har.text), []);

    assert.equal(bundle.status, 200, bundle.text);
    assert.equal(bundle.body.kind, 'giving-connect.case-bundle');
    assert.equal(bundle.body.donorDetails, 'redacted');
    assert.equal(bundle.body.case.grants[0].email, '[redacted]');
    const delivery = bundle.body.case.messages[0].deliveries.find((d: { webhook: { id: string } }) => d.webhook.id === W);
    assert.ok(delivery.attempts.length >= 2 && delivery.receipts.length >= 2 && delivery.explanation.length > 0);
    assertAbsolute(delivery.explanation);
    assert.ok(delivery.receipts.every((r: { verdict: string }) => r.verdict === 'valid'));
    assert.deepEqual(secretsIn(bundle.text), []);
    assert.deepEqual(donorIn(bundle.text), []);
    assert.equal((await staff('GET', `/api/cases/${trackingId}/export?includeDonor=1`)).body.case.grants[0].email, emails[0]);
  });
});

describe('audit log', () => {
  test('records logins (both outcomes), logouts, receiver changes and exports with who, what and the result; it cannot be changed', async () => {
    assert.equal((await call(app, 'POST', '/api/session', { body: { email: ADMIN.email, password: 'wrong-password' } })).status, 401);
    const rule = await staff('POST', '/api/alert-rules', {
      name: 'audited rule',
      kind: 'webhook_disabled',
      targetUrl: `${app.baseUrl}/ingest/audit-alerts`,
      enabled: false,
    });
    assert.equal(rule.status, 201, rule.text);
    assert.equal((await staff('PATCH', `/api/alert-rules/${rule.body.rule.id}`, { enabled: true })).status, 200);
    assert.equal((await staff('DELETE', `/api/alert-rules/${rule.body.rule.id}`)).status, 204);
    const second = await staffCookie(app);
    assert.equal((await call(app, 'DELETE', '/api/session', { headers: { cookie: second } })).status, 204);
    const all = (await staff('GET', '/api/audit')).body.results as {
      actor: string;
      action: string;
      target: string;
      result: string;
      detail: Record<string, unknown>;
    }[];
    const has = (action: string, result: string, target?: string) =>
      all.some((r) => r.action === action && r.result === result && r.actor === ADMIN.email && (!target || r.target.split(' ').includes(target)));
    assert.ok(has('login', 'ok'));
    assert.ok(has('login', 'wrong_password'));
    assert.ok(has('logout', 'ok'));
    assert.ok(has('receiver.create', 'ok', receiverId));
    assert.ok(has('receiver.update', 'ok', receiverId));
    assert.ok(has('export', 'ok', W));
    assert.ok(has('export', 'ok', receiverId));
    for (const action of ['alert-rule.create', 'alert-rule.update', 'alert-rule.delete']) assert.ok(has(action, 'ok', rule.body.rule.id), action);
    assert.ok(!JSON.stringify(all).includes(rule.body.secret), 'not the rule’s signing secret either');
    const update = all.find((r) => r.action === 'receiver.update' && String(r.detail.changed).includes('responseStatus'));
    assert.ok(update, JSON.stringify(all.filter((r) => r.action === 'receiver.update')));
    assert.ok(!JSON.stringify(all).includes(S.slice(6, 30)), 'no secret in the log');
    const exported = all.find((r) => r.action === 'export' && r.detail.format === 'csv' && r.detail.since);
    assert.match(String(exported?.detail.since), /^\d{4}-\d\d-\d\dT/, 'timestamps in details are kept as they are');
    const create = all.find((r) => r.action === 'receiver.create');
    assert.equal(create?.detail.verifies, true);

    const filtered = (await staff('GET', `/api/audit?action=export&target=${W}`)).body.results as { action: string }[];
    assert.ok(filtered.length >= 1 && filtered.every((r) => r.action === 'export'));
    const paged = await staff('GET', '/api/audit?action=export&pageToken=1');
    assert.equal(paged.body.results.length, 0);
    assertProblem(await staff('GET', '/api/audit?action=delete-everything'), 400);
    for (const method of ['POST', 'PATCH', 'PUT', 'DELETE']) assert.equal((await staff(method, '/api/audit')).status, 405);
  });
});

describe('traces (OpenTelemetry over OTLP)', () => {
  test("a grant request continues the caller's trace; its store statement, its delivery attempt and the receiver's ingest are spans linked to it; console requests are spans too", async () => {
    assert.match(app.logs(), /traces {11}OpenTelemetry over OTLP \(http\/json\) to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/, 'the banner says where traces go');
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    const email = `traced-${randomBytes(3).toString('hex')}@example.org`;
    const g = await call(app, 'POST', '/v1/grants', {
      token: tok,
      body: { amount: 7100, fundId: 'fidelity-charitable', firstName: 'Trace', lastName: 'Able', email },
      headers: { 'x-service-api-key': apiKey, traceparent: `00-${traceId}-${parentId}-01` },
    });
    assert.equal(g.status, 201, g.text);
    const message = await eventually(
      async () => (await api('GET', `/v1/messages?tag=grant:${g.body.id}`)).body.results?.[0]?.id as string | undefined,
      10000,
      'the grant message',
    );
    await eventually(async () => (await statusOf(message)) === 'success', 15000, 'the traced grant delivered');
    assert.equal((await staff('GET', '/api/receivers')).status, 200);

    const find = (what: string, match: (s: TSpan) => boolean) => eventually(async () => otlp.spans.find(match), 15000, what);
    const request = await find('the grant request span', (s) => s.name === 'POST /v1/grants' && s.traceId === traceId);
    assert.equal(request.parentSpanId, parentId, "a child of the caller's span (its traceparent)");
    assert.equal(request.kind, 2, 'a server span');
    assert.equal(request.service, 'giving-connect-console');
    assert.equal(request.attributes['http.response.status_code'], 201);
    // The store's statements on the hot paths are client spans of their own in the request's trace: the grant's insert (by its prepared name)
    // with its fixed text (parameters, no donor's values) and what it returned.
    const insert = await find('the grant insert statement span', (s) => s.name === 'insert_grant_event' && s.traceId === traceId);
    assert.equal(insert.kind, 3, 'a client span');
    assert.equal(insert.attributes['db.system.name'], 'postgresql');
    assert.match(String(insert.attributes['db.query.text']), /insert into service\.messages/i);
    assert.doesNotMatch(String(insert.attributes['db.query.text']), new RegExp(email), "no donor's value in the statement text");
    assert.equal(insert.attributes['db.response.returned_rows'], 1);
    const attempt = await find(
      'the attempt span',
      (s) => s.name === 'webhook.attempt' && s.attributes['message.id'] === message && s.attributes['http.response.status_code'] === 200,
    );
    assert.deepEqual(attempt.links, [{ traceId, spanId: request.spanId }], 'linked to the grant request that made the message');
    assert.equal(attempt.attributes['webhook.id'], W);
    assert.equal(attempt.attributes['delivery.ok'], true);
    assert.equal(typeof attempt.attributes['delivery.attempt'], 'number');
    // OTEL_DELIVERY_TRACEPARENT=true: the delivery's POST carries the attempt's traceparent, so the receiver's side (this console's
    // receiver) continues the attempt's trace across the wire.
    const slug = (await staff('GET', `/api/receivers/${receiverId}`)).body.slug as string;
    const ingest = await find(
      "the receiver's ingest span",
      (s) => s.name === 'console.ingest' && s.attributes['receiver.slug'] === slug && s.attributes['http.response.status_code'] === 200,
    );
    const post = otlp.spans.find((s) => s.spanId === ingest.parentSpanId);
    assert.equal(post?.name, 'POST /ingest/{id}', 'inside the request span of its POST');
    await find('the receipt insert statement span', (s) => s.name === 'insert console.receipts' && s.traceId === ingest.traceId && s.kind === 3);
    const continued = await find("the receiver's request continuing the attempt", (s) => s.name === 'POST /ingest/{id}' && s.parentSpanId === attempt.spanId);
    assert.equal(continued.traceId, attempt.traceId, "the receiver's request continues the attempt's trace");
    // Ours (url.path); Next's own span of the same name is its child there.
    const page = await find('a console request span', (s) => s.name === 'GET /api/receivers' && s.attributes['url.path'] === '/api/receivers');
    assert.equal(page.attributes['http.response.status_code'], 200);
    assert.ok(
      otlp.spans.some((s) => s.parentSpanId === page.spanId),
      'with the spans made while it was served under it',
    );
  });
});
