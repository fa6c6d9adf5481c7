// Own app: an app with METRICS_TOKEN and a retry schedule of an hour; the rest uses the shared app.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import parsePrometheus from 'parse-prometheus-text-format';
import { startApp } from '../helpers/app';
import { assertProblem, call, eventually, staffCookie, token } from '../helpers/http';
import { startReceiver, type TReceiver } from '../helpers/receiver';
import { sharedApp, type TSharedApp } from '../helpers/shared-app';

// @ci-one-store: CI runs this file in the embedded-store pass only (the health reads are plain queries
// over the rollups, the same on any store).
// Webhook stats (EXT GET /v1/webhooks/{id}/stats) against attempts the test made happen — a real
// receiver answering 2xx to some and 500 to others, delivered by the real worker — and /metrics:
// off by default, then behind its token, its counters moving with those deliveries. (The stats over
// the attempts of a database made before their indexes: tests/upgrade/health.ts.)

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let app: Awaited<ReturnType<typeof startApp>>;
/** An app with the default test settings (no METRICS_TOKEN): the suite's shared app. */
let plain: TSharedApp;
let receiver: TReceiver;
let tok: string;
let otherTok: string;
let baseline: TSamples;

// One retry an hour later: a failed attempt leaves its message pending, so the backlog is known.
before(async () => {
  [app, plain, receiver] = await Promise.all([
    startApp({ accounts: ['other'], env: { METRICS_TOKEN, DELIVERY_RETRY_SCHEDULE: '3600' } }),
    sharedApp(),
    startReceiver(),
  ]);
  [tok, otherTok] = await Promise.all([token(app), token(app, app.clients.other)]);
  baseline = await scrape();
});
after(async () => {
  await Promise.all([app?.stop(), plain?.stop(), receiver?.close()]);
});

type TSamples = Map<string, number>;

/**
 * The metrics as `name{label="v",…}` → value: counters and gauges as a Prometheus text-format
 * parser reads them (it fails on malformed text); a histogram's `_count` and `_sum` samples from
 * their lines (the parser keeps only the buckets of a labelled histogram).
 */
async function scrape(): Promise<TSamples> {
  const res = await fetch(`${app.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const out: TSamples = new Map();
  for (const family of parsePrometheus(text)) {
    if (family.type !== 'COUNTER' && family.type !== 'GAUGE') continue;
    for (const m of family.metrics) {
      const labels = Object.entries(m.labels ?? {})
        .map(([k, v]) => `${k}="${v}"`)
        .join(',');
      out.set(`${family.name}{${labels}}`, Number(m.value));
    }
  }
  for (const [, name, value] of text.matchAll(/^(\w+_(?:count|sum)\{[^}]*\}) (\S+)$/gm)) out.set(name, Number(value));
  return out;
}

const grew = (after: TSamples, key: string) => (after.get(key) ?? 0) - (baseline.get(key) ?? 0);

async function stats(webhookId: string, query = '', t = tok) {
  return call(app, 'GET', `/v1/webhooks/${webhookId}/stats${query}`, { token: t });
}

async function newWebhook(url: string, t = tok): Promise<string> {
  const res = await call(app, 'POST', '/v1/webhooks', { token: t, body: { url, eventTypes: ['grant.succeeded'] } });
  assert.equal(res.status, 201, res.text);
  return res.body.id;
}

/** Sends a test event and waits for its first attempt to be recorded. */
async function deliverOne(webhookId: string): Promise<{ id: string; status: string; timestamp: string; attemptAt: string }> {
  const sent = await call(app, 'POST', `/v1/webhooks/${webhookId}/test`, { token: tok });
  assert.equal(sent.status, 200, sent.text);
  return eventually(
    async () => {
      const r = await call(app, 'GET', `/v1/webhooks/${webhookId}/messages/${sent.body.id}`, { token: tok });
      return r.body.attemptCount >= 1 && r.body.status !== 'sending' && { ...r.body, attemptAt: r.body.lastAttempt?.timestamp };
    },
    20_000,
    `the first attempt of ${sent.body.id}`,
  );
}

describe('stats', () => {
  let mixed: string;
  let messages: Awaited<ReturnType<typeof deliverOne>>[] = [];

  before(async () => {
    // 2xx to the first three requests, 500 to every later one; one message at a time, so the order is known.
    const ep = receiver.endpoint((_req, n) => (n <= 3 ? { status: 204 } : { status: 500, body: 'database down' }));
    mixed = await newWebhook(ep.url);
    messages = [];
    for (let i = 0; i < 5; i++) messages.push(await deliverOne(mixed));
  });

  test('counts, success rate, streak, backlog and last success match the attempts made', async () => {
    assert.deepEqual(
      messages.map((m) => m.status),
      ['success', 'success', 'success', 'pending', 'pending'],
    );
    const res = await stats(mixed, '?window=1h');
    assert.equal(res.status, 200, res.text);
    const s = res.body;
    assert.equal(s.webhookId, mixed);
    assert.equal(s.window, '1h');
    assert.equal(s.bucketSeconds, 300);
    // The window starts at the start of its first 5-minute bucket: an hour and at most one bucket more.
    const span = Date.parse(s.until) - Date.parse(s.from);
    assert.ok(span >= 3600_000 && span < 3600_000 + 300_000, String(span));
    assert.equal(Date.parse(s.from) % 300_000, 0);
    assert.equal(s.attempts, 5);
    assert.equal(s.successes, 3);
    assert.equal(s.failures, 2);
    assert.equal(s.successRate, 0.6);
    assert.equal(s.failureStreak, 2);
    assert.equal(s.lastSuccessAt, messages[2].attemptAt);
    assert.equal(s.lastAttemptAt, messages[4].attemptAt);
    assert.equal(s.backlog.pending, 2);
    assert.equal(s.backlog.sending, 0);
    assert.equal(s.backlog.oldestPendingAt, messages[3].timestamp);
    assert.ok(s.backlog.oldestPendingAgeSeconds >= 0 && s.backlog.oldestPendingAgeSeconds < 120, String(s.backlog.oldestPendingAgeSeconds));
    // The retry an hour away (±20 % jitter), of whichever failed message is due first.
    const nextIn = Date.parse(s.backlog.nextAttemptAt) - Date.now();
    assert.ok(nextIn > 40 * 60_000 && nextIn < 80 * 60_000, s.backlog.nextAttemptAt);
    assert.ok(s.failingSince, 'failing since its first failure');
    assert.equal(s.lastFailureAt, messages[4].attemptAt);
    assert.equal(s.recovery, null, 'the newest attempt failed: no recovery');
    assert.equal(s.disabled, false);
    assert.equal(s.disabledReason, null);
    const { p50, p95, p99 } = s.responseTimeMs;
    assert.ok(typeof p50 === 'number' && p50 >= 0 && p50 <= p95 && p95 <= p99, JSON.stringify(s.responseTimeMs));
  });

  test('every window: buckets are contiguous, cover the window, and sum to its totals', async () => {
    const answers = await Promise.all(['1h', '24h', '7d'].map((w) => stats(mixed, `?window=${w}`)));
    for (const [i, { status, body: s }] of answers.entries()) {
      assert.equal(status, 200);
      assert.equal(s.window, ['1h', '24h', '7d'][i]);
      assert.equal(s.bucketSeconds, [300, 3600, 21600][i]);
      // Epoch-aligned buckets: the first one starts at or before `from`, the last one holds `until`.
      assert.equal(s.buckets.length, [13, 25, 29][i]);
      assert.ok(Date.parse(s.buckets[0].start) <= Date.parse(s.from) && Date.parse(s.buckets[0].end) > Date.parse(s.from));
      assert.ok(Date.parse(s.buckets.at(-1).start) <= Date.parse(s.until) && Date.parse(s.buckets.at(-1).end) > Date.parse(s.until));
      for (const [j, b] of s.buckets.entries()) {
        assert.match(b.start, ISO_MS);
        assert.equal(Date.parse(b.end) - Date.parse(b.start), s.bucketSeconds * 1000);
        if (j > 0) assert.equal(b.start, s.buckets[j - 1].end);
        assert.equal(b.failures, b.attempts - b.successes);
        assert.equal(b.p50 === null, b.attempts === 0);
      }
      const sum = (k: 'attempts' | 'successes' | 'failures') => s.buckets.reduce((n: number, b: Record<string, number>) => n + b[k], 0);
      assert.deepEqual([sum('attempts'), sum('successes'), sum('failures')], [5, 3, 2]);
      assert.equal(s.successRate, 0.6);
      assert.equal(s.failureStreak, 2);
    }
  });

  test('a webhook without attempts, then disabled: zeros, nulls, and why and when', async () => {
    const quiet = await newWebhook(receiver.endpoint().url);
    const s = (await stats(quiet)).body;
    assert.equal(s.window, '24h', 'the default window');
    assert.deepEqual([s.attempts, s.successes, s.failures, s.successRate, s.failureStreak], [0, 0, 0, null, 0]);
    assert.deepEqual(s.responseTimeMs, { p50: null, p95: null, p99: null });
    assert.deepEqual(s.backlog, { pending: 0, sending: 0, oldestPendingAt: null, oldestPendingAgeSeconds: null, nextAttemptAt: null });
    assert.equal(s.lastSuccessAt, null);
    assert.ok(s.buckets.every((b: { attempts: number }) => b.attempts === 0));
    assert.equal((await call(app, 'PATCH', `/v1/webhooks/${quiet}`, { token: tok, body: { disabled: true } })).status, 200);
    const d = (await stats(quiet, '?window=7d')).body;
    assert.equal(d.disabled, true);
    assert.equal(d.disabledReason, 'disabled through the API');
    assert.match(d.disabledAt, ISO_MS);
  });

  test('a bad window is a 400 naming it; other accounts, unknown ids and no token are refused', async () => {
    const [bad, upper, foreign, unknown, anonymous, post] = await Promise.all([
      stats(mixed, '?window=2h'),
      stats(mixed, '?window=24H'),
      stats(mixed, '?window=1h', otherTok),
      stats('ep_2pYtF0cE2Zb3hA4nQd8sXkLmR1v', '?window=1h'),
      call(app, 'GET', `/v1/webhooks/${mixed}/stats`),
      call(app, 'POST', `/v1/webhooks/${mixed}/stats`, { token: tok }),
    ]);
    const problem = assertProblem(bad, 400, /window/);
    assert.deepEqual(problem.errors, [{ path: 'window', message: 'must be one of: 1h, 24h, 7d' }]);
    assertProblem(upper, 400, /window/);
    assertProblem(foreign, 404, new RegExp(mixed));
    assertProblem(unknown, 404);
    assertProblem(anonymous, 401);
    assertProblem(post, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD, OPTIONS');
  });

  test('the console reads them over HTTP: its stats route, and the health home troubled first', async () => {
    const cookie = await staffCookie(app);
    const [one, home, bad, anonymous] = await Promise.all([
      call(app, 'GET', `/api/webhooks/${mixed}/stats?window=1h`, { headers: { cookie } }),
      call(app, 'GET', '/api/webhook-health?window=7d', { headers: { cookie } }),
      call(app, 'GET', `/api/webhooks/${mixed}/stats?window=1d`, { headers: { cookie } }),
      call(app, 'GET', '/api/webhook-health'),
    ]);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.stats.attempts, 5);
    assert.deepEqual(one.body.health, { level: 'failing', reasons: ['success rate 60%'] });
    assert.equal(home.status, 200, home.text);
    assert.equal(home.body.window, '7d');
    assert.equal(home.body.statsSupported, true);
    const levels = home.body.rows.map((r: { webhook: { id: string }; health: { level: string } }) => `${r.webhook.id}:${r.health.level}`);
    assert.equal(levels[0], `${mixed}:failing`, 'the failing webhook first');
    assert.ok(
      levels.every((l: string, i: number) => i === 0 || !l.endsWith(':failing')),
      levels.join(' '),
    );
    assertProblem(bad, 400, /window/);
    assert.equal(anonymous.status, 401);
  });
});

describe('metrics', () => {
  test('off unless METRICS_TOKEN is set: a 404 problem', async () => {
    const res = await call(plain, 'GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assertProblem(res, 404, /METRICS_TOKEN/);
  });

  test('with a token: none or a wrong one is a 401', async () => {
    const [none, wrong, longer, basic] = await Promise.all([
      call(app, 'GET', '/metrics'),
      call(app, 'GET', '/metrics', { token: 'metrics-token-for-tests-0123456780' }),
      call(app, 'GET', '/metrics', { token: `${METRICS_TOKEN}x` }),
      call(app, 'GET', '/metrics', { headers: { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` } }),
    ]);
    for (const res of [none, wrong, longer, basic]) {
      assertProblem(res, 401);
      assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="metrics"');
      assert.doesNotMatch(res.text, /metrics-token-for-tests/);
    }
  });

  test('the partitions of the tables partitioned by time: how many, their span and size, the next drop, those held', async () => {
    // Read from the catalog at the scrape (this file's own app: a copy of the template, its first partition attempts_p0
    // from the beginning and those after it a week ahead; none past the default year, so none held).
    const m = await scrape();
    const of = (name: string) => m.get(`${name}{table="service.attempts"}`) ?? NaN;
    assert.ok(of('gc_store_partitions') >= 3, `${of('gc_store_partitions')} partitions`);
    assert.ok(of('gc_store_partitions_bytes') >= of('gc_store_partitions') * 8192, 'their size with indexes');
    assert.ok(of('gc_store_partition_newest_end_timestamp_seconds') >= Date.now() / 1000 + 6 * 86_400, 'made a week ahead');
    assert.equal(m.has('gc_store_partition_oldest_start_timestamp_seconds{table="service.attempts"}'), false, 'the first from the beginning: no start');
    const next = m.get('gc_store_partition_next_drop_timestamp_seconds{table="service.attempts",partition="service.attempts_p0"}') ?? NaN;
    const end = next - 365 * 86_400;
    assert.ok(
      end <= Date.now() / 1000 && end > Date.now() / 1000 - 365 * 86_400,
      `the oldest goes a year after its end, the upgrade's moment: not yet (${next})`,
    );
    assert.equal(of('gc_store_partitions_held'), 0);
    // The console's receipts, partitioned by id (migration 0038): receipts_p0 from the beginning, the one opened then and one
    // made ahead; the open one closes at the next interval's start; the oldest goes at its close + RECEIPT_RETENTION.
    const receipts = (name: string) => m.get(`${name}{table="console.receipts"}`) ?? NaN;
    assert.ok(receipts('gc_store_partitions') >= 3, `${receipts('gc_store_partitions')} receipt partitions`);
    assert.ok(receipts('gc_store_partitions_bytes') >= receipts('gc_store_partitions') * 8192);
    assert.equal(m.has('gc_store_partition_oldest_start_timestamp_seconds{table="console.receipts"}'), false, 'receipts_p0: from the beginning');
    assert.ok(receipts('gc_store_partition_newest_end_timestamp_seconds') > Date.now() / 1000, 'the open one closes ahead');
    const receiptsNext = m.get('gc_store_partition_next_drop_timestamp_seconds{table="console.receipts",partition="console.receipts_p0"}') ?? NaN;
    assert.ok(receiptsNext - 365 * 86_400 <= Date.now() / 1000, `receipts_p0 goes a year after its close (${receiptsNext})`);
    assert.equal(receipts('gc_store_partitions_held'), 0);
    // service.deliveries (migration 0039) beside it, its first partition from the beginning too.
    const ofDeliveries = (name: string) => m.get(`${name}{table="service.deliveries"}`) ?? NaN;
    assert.ok(ofDeliveries('gc_store_partitions') >= 3, `${ofDeliveries('gc_store_partitions')} deliveries partitions`);
    assert.ok(ofDeliveries('gc_store_partition_newest_end_timestamp_seconds') >= Date.now() / 1000 + 6 * 86_400, "deliveries' made a week ahead");
    assert.ok(m.has('gc_store_partition_next_drop_timestamp_seconds{table="service.deliveries",partition="service.deliveries_p0"}'), "deliveries' next drop");
    assert.equal(ofDeliveries('gc_store_partitions_held'), 0);
    // service.messages (migration 0040) beside them, the same way.
    const ofMessages = (name: string) => m.get(`${name}{table="service.messages"}`) ?? NaN;
    assert.ok(ofMessages('gc_store_partitions') >= 3, `${ofMessages('gc_store_partitions')} messages partitions`);
    assert.ok(ofMessages('gc_store_partition_newest_end_timestamp_seconds') >= Date.now() / 1000 + 6 * 86_400, "messages' made a week ahead");
    assert.ok(m.has('gc_store_partition_next_drop_timestamp_seconds{table="service.messages",partition="service.messages_p0"}'), "messages' next drop");
    assert.equal(ofMessages('gc_store_partitions_held'), 0);
  });

  test('the right token: Prometheus text whose counters moved with the deliveries above, and the queue from SQL', async () => {
    // A console receiver too, so the ingest counter has something to count.
    const cookie = await staffCookie(app);
    const created = await call(app, 'POST', '/api/receivers', { headers: { cookie }, body: { name: 'metrics' } });
    assert.equal(created.status, 201, created.text);
    const ingestHook = await newWebhook(created.body.ingestUrl);
    const delivered = await deliverOne(ingestHook);
    assert.equal(delivered.status, 'success');

    const now = await scrape();
    const shown = [...now]
      .filter(([k]) => k.startsWith('gc_delivery_attempts'))
      .map(([k, v]) => `${k} ${v} (was ${baseline.get(k)})`)
      .join('; ');
    assert.equal(grew(now, 'gc_delivery_attempts_total{outcome="success",trigger="scheduled"}'), 4, shown); // 3 + the receiver's
    assert.equal(grew(now, 'gc_delivery_attempts_total{outcome="http_error",trigger="scheduled"}'), 2, shown);
    assert.equal(grew(now, 'gc_delivery_duration_seconds_count{outcome="success"}'), 4);
    assert.equal(grew(now, 'gc_delivery_duration_seconds_count{outcome="http_error"}'), 2);
    assert.ok(grew(now, 'gc_delivery_duration_seconds_sum{outcome="success"}') > 0);
    // The receiver holds no secret yet: its verdict says so.
    assert.equal(grew(now, 'gc_ingest_receipts_total{verdict="no secret configured"}'), 1);
    assert.equal(now.get('gc_delivery_queue_depth{state="pending"}'), 2, 'the two failed messages wait for their retry');
    assert.equal(now.get('gc_delivery_queue_depth{state="due"}'), 0);
    assert.ok((now.get('gc_delivery_queue_oldest_age_seconds{}') ?? -1) >= 0);
    assert.ok(now.has('gc_process_resident_memory_bytes{}'), 'process metrics too');
    // Sampled every 100 ms, its shortest interval is about 0.1 s: at prom-client's 10 ms its timer woke an idle app 100 times a second.
    const lagMin = now.get('gc_nodejs_eventloop_lag_min_seconds{}') ?? 0;
    assert.ok(lagMin >= 0.05, `the event-loop lag is sampled every 100 ms (its least interval: ${lagMin} s)`);
  });
});

describe('health from both sides, and recovering', () => {
  const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
  type THomeRow = {
    webhook: { id: string };
    health: { level: string; reasons: string[]; since?: string };
    receiver: { failures: number; unverifiedAccepted: number } | null;
  };
  const homeRow = async (cookie: string, id: string): Promise<THomeRow> => {
    const home = await call(app, 'GET', '/api/webhook-health?window=1h', { headers: { cookie } });
    assert.equal(home.status, 200, home.text);
    return home.body.rows.find((r: THomeRow) => r.webhook.id === id);
  };

  test('a webhook whose every arrival failed the signature check is failing on the home and its page, not "healthy 100 %"', async () => {
    const cookie = await staffCookie(app);
    const S = newSecret();
    const created = await call(app, 'POST', '/api/receivers', { headers: { cookie }, body: { name: 'holds another secret', secret: newSecret() } });
    assert.equal(created.status, 201, created.text);
    const res = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: created.body.ingestUrl, eventTypes: ['grant.succeeded'], secret: S } });
    assert.equal(res.status, 201, res.text);
    const id = res.body.id as string;
    for (let i = 0; i < 2; i++) assert.equal((await deliverOne(id)).status, 'success', 'the service counts it delivered');

    const s = (await stats(id, '?window=1h')).body;
    assert.deepEqual([s.attempts, s.successes, s.successRate], [2, 2, 1], 'the service alone says 100 %');
    const row = await homeRow(cookie, id);
    assert.equal(row.health.level, 'failing', JSON.stringify(row));
    assert.deepEqual(row.health.reasons, ['success rate 0% counting 2 arrivals not verified at receiver “holds another secret”']);
    assert.deepEqual([row.receiver?.failures, row.receiver?.unverifiedAccepted], [2, 2]);
    const page = await call(app, 'GET', `/api/webhooks/${id}/stats?window=1h`, { headers: { cookie } });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body.health, row.health, 'the webhook page says what the home says');
    assert.equal(page.body.receiver.failures, 2);

    // The receiver gets the webhook's secret: the next arrival verifies, and the webhook is recovering since its last failed arrival.
    assert.equal((await call(app, 'PATCH', `/api/receivers/${created.body.id}`, { headers: { cookie }, body: { secrets: [S] } })).status, 200);
    assert.equal((await deliverOne(id)).status, 'success');
    const fixed = await homeRow(cookie, id);
    assert.equal(fixed.health.level, 'recovering', JSON.stringify(fixed));
    assert.match(fixed.health.reasons[0], /^recovering since \d\d:\d\d: the newest attempt succeeded and verified$/);
  });

  test('after a 410 disables the webhook, its other waiting messages say they will not be attempted, not "next attempt (2 of 8) in 1 h"', async () => {
    const cookie = await staffCookie(app);
    // A 500 first (its message waits an hour for its retry), then 410 Gone: the webhook is disabled at once.
    const ep = receiver.endpoint((_req, n) => (n === 1 ? { status: 500, body: 'down' } : { status: 410 }));
    const id = await newWebhook(ep.url);
    const waiting = await deliverOne(id);
    assert.equal(waiting.status, 'pending');
    await deliverOne(id);
    const timeline = await call(app, 'GET', `/api/webhooks/${id}/timeline`, { headers: { cookie } });
    assert.equal(timeline.status, 200, timeline.text);
    assert.equal(timeline.body.webhook.disabled, true);
    const m = timeline.body.messages.find((x: { id: string }) => x.id === waiting.id);
    assert.equal(m.status, 'pending', 'the service still lists it as waiting');
    assert.doesNotMatch(m.explanation, /next attempt/);
    assert.match(
      m.explanation,
      /; no further attempts: the webhook was disabled at \d\d:\d\d:\d\d \(the endpoint answered 410 Gone\), so this message ends failed when its retry falls due in \d+ min unless the webhook is enabled first$/,
    );
    assert.equal((await homeRow(cookie, id)).health.level, 'disabled');
    // The message's own page says so too, rather than counting down to an attempt that will not come.
    const detail = await call(app, 'GET', `/api/webhooks/${id}/messages/${waiting.id}`, { headers: { cookie } });
    assert.equal(detail.status, 200, detail.text);
    assert.equal(detail.body.webhookDisabled, true);
    const page = await call(app, 'GET', `/webhooks/${id}/messages/${waiting.id}`, { headers: { cookie } });
    assert.match(page.text, /none: the webhook is disabled/);
  });

  test('the service tells a recovery: the attempts since the newest failure, and the console says "recovering since"', async () => {
    const cookie = await staffCookie(app);
    // A 500 first (its message waits an hour for its retry), then 2xx.
    const ep = receiver.endpoint((_req, n) => (n === 1 ? { status: 500, body: 'down' } : { status: 204 }));
    const id = await newWebhook(ep.url);
    const failed = await deliverOne(id);
    assert.equal(failed.status, 'pending');
    const ok: Awaited<ReturnType<typeof deliverOne>>[] = [];
    for (let i = 0; i < 2; i++) ok.push(await deliverOne(id));
    let s = (await stats(id, '?window=1h')).body;
    assert.equal(s.lastFailureAt, failed.attemptAt);
    assert.deepEqual(s.recovery, { since: ok[0].attemptAt, attempts: 2 });
    assert.equal((await homeRow(cookie, id)).health.level, 'failing', 'two successes are not a recovery yet (33 % over the window)');

    ok.push(await deliverOne(id));
    s = (await stats(id, '?window=1h')).body;
    assert.deepEqual(s.recovery, { since: ok[0].attemptAt, attempts: 3 });
    const row = await homeRow(cookie, id);
    assert.equal(row.health.level, 'recovering', JSON.stringify(row));
    assert.equal(row.health.since, ok[0].attemptAt);
    assert.equal(row.health.reasons[0], `recovering since ${ok[0].attemptAt.slice(11, 16)}: the last 3 attempts succeeded`);
  });
});
