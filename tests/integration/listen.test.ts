// Own app: a short receipt-stream heartbeat, and it kills and restarts the app under a listening CLI.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp, withAppDb, type TApp } from '../helpers/app';
import { call, eventually, staffCookie } from '../helpers/http';

// `listen` and what it stands on, against the built app: personal access tokens (shown once,
// stored hashed, revoked at once, good for the receipt stream and nothing else, audited), the
// receipt stream (Server-Sent Events: backlog in order, then live on commit, heartbeats, a revoked
// token's stream ended), and `npm run listen` as a process: receipts forwarded verbatim to a
// loopback server, killed and started again (the backlog exactly once, in order, then live), a
// console restart survived, Ctrl-C, and a revoked or expired token refused with one line and exit 1.

const ROOT = path.resolve(import.meta.dirname, '../..');
const HEARTBEAT_MS = 400;

let app: TApp;
const cookies: Record<string, string> = {};
const receiver = { id: '', slug: '' };
/** A token the first tokens test makes and moves past its expiry, for the last test of `npm run listen`. */
let expiring = { id: '', token: '' };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-listen-'));

const as = (who: string, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
  call(app, method, url, { headers: { ...(cookies[who] ? { cookie: cookies[who] } : {}), ...headers }, ...(body === undefined ? {} : { body }) });

before(async () => {
  app = await startApp({ env: { RECEIPT_STREAM_HEARTBEAT_MS: String(HEARTBEAT_MS) } });
  cookies.admin = await staffCookie(app);
  for (const role of ['viewer', 'operator'] as const) {
    const res = await as('admin', 'POST', '/api/users', { email: `${role}@example.org`, role });
    assert.equal(res.status, 201, res.text);
    cookies[role] = await staffCookie(app, { email: `${role}@example.org`, password: res.body.password });
  }
  const made = await as('operator', 'POST', '/api/receivers', { name: 'Listen' });
  assert.equal(made.status, 201, made.text);
  Object.assign(receiver, { id: made.body.id, slug: made.body.slug });
});
after(async () => {
  await app?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function makeToken(who = 'operator', name = 'laptop'): Promise<{ id: string; token: string }> {
  const res = await as(who, 'POST', '/api/tokens', { name, expiresInDays: 7 });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** A receipt sent to the receiver: headers in this order, a body that is not UTF-8 when asked. */
async function ingest(messageId: string, { binary = false } = {}): Promise<void> {
  const body = binary ? Buffer.from([0xff, 0x00, 0xfe, 0x7b, 0x0a]) : Buffer.from(JSON.stringify({ type: 'grant.succeeded', data: { n: messageId } }));
  const res = await fetch(`${app.baseUrl}/ingest/${receiver.slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-zeta': 'first', 'webhook-id': messageId, 'x-alpha': 'second' },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  assert.ok(res.status < 500, `ingest ${messageId}: ${res.status}`);
}

type TEvent = { event: string; id: string | null; data: string };
/** An open stream's events as they come, and a way to wait for some. */
async function openStream(query: string, headers: Record<string, string>) {
  const ac = new AbortController();
  const res = await fetch(`${app.baseUrl}/api/receivers/${receiver.slug}/stream${query}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: ac.signal,
  });
  const events: TEvent[] = [];
  const raw: string[] = [];
  let ended = false;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        raw.push(decoder.decode(chunk));
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e: TEvent = { event: 'message', id: null, data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('data: ')) e.data = line.slice(6);
            else if (line.startsWith(':')) e.event = 'comment';
          }
          events.push(e);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    res,
    events,
    receipts: () => events.filter((e) => e.event === 'receipt').map((e) => JSON.parse(e.data)),
    ended: () => ended,
    close: () => ac.abort(),
  };
}

// First in the file, before any stream has opened: the app's LISTEN is not in place yet.
describe('the NOTIFY of stored receipts', () => {
  test(
    'on PostgreSQL, a commit of receipts notifies only while a receipt stream listens',
    { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only (on the embedded store the listener is in the same process)' },
    async () => {
      const pg = (await import('pg')).default;
      // An eavesdropper that does not announce itself as a listener (lib/db/listeners.ts): it hears
      // the NOTIFYs sent, and does not cause them.
      const ear = new pg.Client({ connectionString: app.env.DATABASE_URL, application_name: 'test-eavesdropper' });
      await ear.connect();
      const heard: string[] = [];
      ear.on('notification', (n) => n.channel === 'gc_receipts' && heard.push(n.payload ?? ''));
      await ear.query('listen gc_receipts');
      try {
        await ingest('msg_quiet');
        await ear.query('select 1'); // a NOTIFY of that commit would have reached the eavesdropper before this answer
        assert.equal(heard.length, 0, `no NOTIFY while no stream listens: ${heard}`);

        const s = await openStream('', { cookie: cookies.operator }); // (no token: the next tests count them)
        await eventually(async () => s.events.find((e) => e.event === 'ready'), 5000, 'ready');
        // Once the app has seen the stream's LISTEN (it looks at most once a second), commits notify.
        await eventually(
          async () => {
            await ingest(`msg_loud_${heard.length}`);
            await ear.query('select 1');
            return heard.length > 0;
          },
          10_000,
          'a NOTIFY while a stream listens',
        );
        assert.ok(
          heard.every((p) => p.split(',').includes(receiver.id)),
          `the payload names the receiver: ${heard}`,
        );
        await eventually(async () => s.receipts().some((r) => r.messageId.startsWith('msg_loud_')), 5000, 'the stream has the receipt');
        s.close();
      } finally {
        await ear.end();
      }
    },
  );
});

describe('personal access tokens', () => {
  test('shown once, stored hashed, listed without the token; bad input is a 400 naming the field; a viewer may not make one', async () => {
    const made = await as('operator', 'POST', '/api/tokens', { name: 'ada laptop', expiresInDays: 7 });
    assert.equal(made.status, 201, made.text);
    assert.match(made.body.token, /^gcc_pat_[A-Za-z0-9]{32}$/);
    const days = (Date.parse(made.body.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 6.99 && days <= 7, `7 days, not ${days}`);
    const listed = await as('operator', 'GET', '/api/tokens');
    assert.deepEqual(
      listed.body.results.map((t: { id: string; state: string }) => [t.id, t.state]),
      [[made.body.id, 'live']],
    );
    assert.ok(!listed.text.includes(made.body.token), 'the token is shown only once');
    assert.deepEqual((await as('admin', 'GET', '/api/tokens')).body.results, [], 'each member lists only their own');

    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ expiresInDays: 7 }, 'name'],
      [{ name: 'x', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: 1.5 }, 'expiresInDays'],
      [{ name: 'x', expiresInDays: '7' }, 'expiresInDays'],
      [{ name: 'x', scope: 'all' }, 'scope'],
    ] as const) {
      const bad = await as('operator', 'POST', '/api/tokens', body);
      assert.equal(bad.status, 400, `${JSON.stringify(body)}: ${bad.text}`);
      assert.match(JSON.stringify(bad.body), new RegExp(field), `${JSON.stringify(body)} names ${field}: ${bad.text}`);
      assert.doesNotMatch(bad.body.detail, new RegExp(`${field}: ${field}|\\.\\.$`), `${JSON.stringify(body)}: the field named once, one full stop`);
    }
    const viewer = await as('viewer', 'POST', '/api/tokens', { name: 'v' });
    assert.equal(viewer.status, 403, viewer.text);
    assert.match(viewer.body.detail, /operators and admins/);
    assert.equal((await as('operator', 'GET', '/api/tokens')).body.results.length, 1, 'refused requests made nothing');

    // Another member cannot revoke it; its owner can, at once, and it is audited.
    assert.equal((await as('admin', 'DELETE', `/api/tokens/${made.body.id}`)).status, 404);
    const stream = await fetch(`${app.baseUrl}/api/receivers/${receiver.slug}/stream`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${made.body.token}` },
    });
    assert.equal(stream.status, 200);
    await stream.body?.cancel();
    assert.equal((await as('operator', 'DELETE', `/api/tokens/${made.body.id}`)).status, 204);
    const refused = await fetch(`${app.baseUrl}/api/receivers/${receiver.slug}/stream`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${made.body.token}` },
    });
    assert.equal(refused.status, 401);
    assert.match((await refused.json()).detail, /was revoked/);
    assert.equal((await as('operator', 'GET', '/api/tokens')).body.results[0].state, 'revoked');
    const audit = await as('admin', 'GET', `/api/audit?target=${made.body.id}`);
    assert.deepEqual(audit.body.results.map((r: { action: string; actor: string }) => `${r.action} ${r.actor}`).sort(), [
      'token.create operator@example.org',
      'token.revoke operator@example.org',
    ]);
    assert.ok(!audit.text.includes(made.body.token));

    // Only its SHA-256 is in the database. In the same look at it (on the embedded store each look
    // stops and starts the app), a token for the last test is moved past its expiry (the API makes
    // none shorter than a day).
    expiring = await makeToken('operator', 'to expire');
    const [rows, all] = await withAppDb(app, async (query) => {
      await query(`update console.personal_tokens set expires_at = now() - interval '1 minute' where id = $1`, [expiring.id]);
      return [
        await query<{ token_hash: string; name: string }>('select token_hash, name from console.personal_tokens'),
        await query('select * from console.personal_tokens'),
      ];
    });
    assert.ok(rows.length >= 1);
    const dump = JSON.stringify(all);
    assert.ok(!dump.includes(made.body.token) && !dump.includes(made.body.token.slice(8)), 'no plaintext token stored');
    assert.ok(rows.some((r) => r.token_hash === createHash('sha256').update(made.body.token).digest('base64url')));
  });

  test('a token opens the receipt stream and no other route; the stream refuses what it cannot serve', async () => {
    const { token } = await makeToken();
    const bearer = { authorization: `Bearer ${token}` };
    for (const [method, url] of [
      ['GET', `/api/receivers/${receiver.id}/receipts`],
      ['GET', `/api/receivers/${receiver.id}`],
      ['GET', '/api/receivers'],
      ['GET', '/api/tokens'],
      ['POST', '/api/tokens'],
      ['GET', '/api/audit'],
      ['GET', `/api/receivers/${receiver.id}/export`],
    ]) {
      const res = await call(app, method, url, { headers: bearer, ...(method === 'POST' ? { body: { name: 'escalate' } } : {}) });
      assert.equal(res.status, 401, `${method} ${url} with a bearer token: ${res.status}`);
    }
    assert.equal((await call(app, 'GET', `/receivers/${receiver.id}`, { headers: bearer })).headers.get('location')?.includes('/login'), true, 'nor a page');

    const stream = (query: string, headers: Record<string, string>) => fetch(`${app.baseUrl}/api/receivers/${receiver.slug}/stream${query}`, { headers });
    const ok = await stream('', { ...bearer, accept: 'text/event-stream' });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type') ?? '', /^text\/event-stream/);
    await ok.body?.cancel();
    const problems: [string, Record<string, string>, number, RegExp][] = [
      ['', { ...bearer }, 406, /Accept/],
      ['?after=abc', { ...bearer, accept: 'text/event-stream' }, 400, /after/],
      ['?after=-1', { ...bearer, accept: 'text/event-stream' }, 400, /after/],
      ['', { ...bearer, accept: 'text/event-stream', 'last-event-id': 'x' }, 400, /Last-Event-ID/],
      ['', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}`, accept: 'text/event-stream' }, 401, /Bearer/],
      ['', { authorization: `Bearer gcc_pat_${'x'.repeat(32)}`, accept: 'text/event-stream' }, 401, /not known/],
      ['', { authorization: 'Bearer sk_test_nope', accept: 'text/event-stream' }, 401, /personal access token/],
      ['', { accept: 'text/event-stream' }, 401, /Sign in/],
      ['', { cookie: cookies.viewer, accept: 'text/event-stream' }, 403, /operators and admins/],
    ];
    for (const [query, headers, status, detail] of problems) {
      const res = await stream(query, headers);
      const body = await res.json();
      assert.equal(res.status, status, `${query} ${JSON.stringify(Object.keys(headers))}: ${JSON.stringify(body)}`);
      assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
      assert.match(body.detail, detail);
    }
    const missing = await fetch(`${app.baseUrl}/api/receivers/no-such-receiver/stream`, { headers: { ...bearer, accept: 'text/event-stream' } });
    assert.equal(missing.status, 404);
    const session = await stream('', { cookie: cookies.operator, accept: 'text/event-stream' });
    assert.equal(session.status, 200, 'an operator’s session opens it too');
    await session.body?.cancel();
  });

  test('a token stops working when its owner is made a viewer or deactivated', async () => {
    const res = await as('admin', 'POST', '/api/users', { email: 'temp@example.org', role: 'operator' });
    const temp = await staffCookie(app, { email: 'temp@example.org', password: res.body.password });
    const made = await call(app, 'POST', '/api/tokens', { headers: { cookie: temp }, body: { name: 'temp' } });
    assert.equal(made.status, 201, made.text);
    const open = () =>
      fetch(`${app.baseUrl}/api/receivers/${receiver.slug}/stream`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${made.body.token}` } });
    const first = await open();
    assert.equal(first.status, 200);
    await first.body?.cancel();
    await as('admin', 'PATCH', `/api/users/${res.body.user.id}`, { role: 'viewer' });
    assert.equal((await open()).status, 403);
    await as('admin', 'PATCH', `/api/users/${res.body.user.id}`, { role: 'operator' });
    const back = await open();
    assert.equal(back.status, 200, 'an operator again');
    await back.body?.cancel();
    await as('admin', 'PATCH', `/api/users/${res.body.user.id}`, { disabled: true });
    const off = await open();
    assert.equal(off.status, 401);
    assert.match((await off.json()).detail, /deactivated/);
  });
});

describe('the receipt stream', () => {
  test('the backlog after the cursor in order, then live receipts on commit, verbatim; heartbeats; a revoked token’s stream ends', async () => {
    const { id: tokenId, token } = await makeToken('operator', 'stream');
    const bearer = { authorization: `Bearer ${token}` };
    const start = await openStream('', bearer); // from now
    await eventually(async () => start.events.find((e) => e.event === 'ready'), 5000, 'ready');
    const readyId = start.events[0].id!;
    start.close();

    for (let i = 1; i <= 3; i++) await ingest(`msg_s_${i}`, { binary: i === 2 });
    const s = await openStream(`?after=${readyId}`, bearer);
    await eventually(async () => s.receipts().length === 3, 5000, 'the backlog');
    assert.deepEqual(
      s.receipts().map((r) => r.messageId),
      ['msg_s_1', 'msg_s_2', 'msg_s_3'],
    );
    const ids = s.receipts().map((r) => r.id);
    assert.deepEqual(
      s.events.filter((e) => e.event === 'receipt').map((e) => Number(e.id)),
      ids,
      'each event’s id is its receipt’s',
    );
    const binary = s.receipts()[1];
    assert.equal(binary.body, Buffer.from([0xff, 0x00, 0xfe, 0x7b, 0x0a]).toString('base64'));
    assert.equal(binary.method, 'POST');
    const names = binary.headers.map(([n]: [string]) => n.toLowerCase());
    assert.ok(
      names.indexOf('x-zeta') < names.indexOf('webhook-id') && names.indexOf('webhook-id') < names.indexOf('x-alpha'),
      `headers in arrival order: ${names}`,
    );
    for (const key of ['verdict', 'receivedAt', 'messageId', 'bodySize']) assert.ok(key in binary, key);

    // Live: pushed as it commits (and 20 sent at once all arrive, each once).
    const t0 = Date.now();
    await ingest('msg_s_4');
    await eventually(async () => s.receipts().length === 4, 3000, 'a live receipt');
    assert.ok(Date.now() - t0 < HEARTBEAT_MS * 3, 'pushed on commit');
    await Promise.all(Array.from({ length: 20 }, (_, i) => ingest(`msg_burst_${i}`)));
    await eventually(async () => s.receipts().length === 24, 10_000, 'the burst');
    assert.equal(new Set(s.receipts().map((r) => r.id)).size, 24, 'none twice');
    await eventually(async () => s.events.some((e) => e.event === 'comment'), HEARTBEAT_MS * 4, 'a heartbeat');

    // Last-Event-ID resumes where a client was.
    const resumed = await openStream('', { ...bearer, 'last-event-id': String(ids[0]) });
    await eventually(async () => resumed.receipts().length === 23, 5000, 'resumed from Last-Event-ID');
    assert.deepEqual(
      resumed.receipts().map((r) => r.id),
      s
        .receipts()
        .slice(1)
        .map((r) => r.id),
    );
    resumed.close();

    // Revoked: the open stream gets an error event and ends, within a heartbeat.
    assert.equal((await as('operator', 'DELETE', `/api/tokens/${tokenId}`)).status, 204);
    await eventually(async () => s.ended(), HEARTBEAT_MS * 6, 'the stream ended');
    const last = s.events.filter((e) => e.event !== 'comment').at(-1)!;
    assert.equal(last.event, 'error');
    assert.match(JSON.parse(last.data).detail, /revoked/);
  });

  test(
    'on PostgreSQL, a receipt committed after a larger id is not skipped: the larger waits for it',
    { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only (the embedded store runs one transaction at a time)' },
    async () => {
      const { token } = await makeToken('operator', 'order');
      const s = await openStream('', { authorization: `Bearer ${token}` });
      await eventually(async () => s.events.some((e) => e.event === 'ready'), 5000, 'ready');
      const pg = (await import('pg')).default;
      const held = new pg.Client({ connectionString: app.env.DATABASE_URL });
      await held.connect();
      try {
        // A batch that took its id first and commits last.
        await held.query('begin');
        await held.query(
          `insert into console.receipts (receiver_id, method, path, headers, body, body_size, verdict, response_status, message_id)
         values ($1, 'POST', $2, '[]', '\\x7b7d', 2, 'valid', 200, 'msg_held')`,
          [receiver.id, `/ingest/${receiver.slug}`],
        );
        await ingest('msg_after_held');
        await new Promise((r) => setTimeout(r, 800));
        assert.deepEqual(
          s.receipts().map((r) => r.messageId),
          [],
          'the later id waits while an earlier transaction runs',
        );
        await held.query('commit');
        await eventually(async () => s.receipts().length === 2, 5000, 'both');
        assert.deepEqual(
          s.receipts().map((r) => r.messageId),
          ['msg_held', 'msg_after_held'],
        );
        assert.ok(s.receipts()[0].id < s.receipts()[1].id);
      } finally {
        await held.end();
        s.close();
      }
    },
  );

  test(
    'on PostgreSQL, a transaction running in another database on the same server holds nothing back',
    { skip: !process.env.TEST_DATABASE_URL && 'PostgreSQL only' },
    async () => {
      const { token } = await makeToken('operator', 'next door');
      const s = await openStream('', { authorization: `Bearer ${token}` });
      await eventually(async () => s.events.some((e) => e.event === 'ready'), 5000, 'ready');
      const pg = (await import('pg')).default;
      // TEST_DATABASE_URL names the server's admin database: another database than the app's.
      const nextDoor = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await nextDoor.connect();
      try {
        await nextDoor.query('begin');
        await nextDoor.query('select pg_current_xact_id()'); // takes a transaction id, as any write does
        await ingest('msg_next_door');
        await eventually(async () => s.receipts().some((r) => r.messageId === 'msg_next_door'), 5000, "sent while the other database's transaction runs");
      } finally {
        await nextDoor.query('rollback').catch(() => {});
        await nextDoor.end();
        s.close();
      }
    },
  );
});

// ---- listen, the process ------------------------------------------------------------------------

type TForwarded = { method: string; url: string; rawHeaders: string[]; body: Buffer };
async function localServer() {
  const got: TForwarded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
      res.writeHead(202, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { got, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`, close: () => new Promise((r) => server.close(r)) };
}

// Every listen process a test starts; any still running when the file ends is killed (a failed
// assertion must not leave one reconnecting forever and the test process waiting on it).
const started = new Set<ChildProcess>();
after(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `npm run listen -- …args` as a process, with `env` over this one's (less any CONSOLE_TOKEN of its own). */
function runListen(args: string[], env: Record<string, string> = {}) {
  const { CONSOLE_TOKEN: _outer, ...inherited } = process.env;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/listen.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr, lines: () => stdout.split('\n').filter((l) => / #\d+ /.test(l)) };
}

const messageIdOf = (f: TForwarded) => {
  const i = f.rawHeaders.findIndex((h, n) => n % 2 === 0 && h.toLowerCase() === 'webhook-id');
  return f.rawHeaders[i + 1];
};

describe('npm run listen', () => {
  test(
    'forwards live; killed and started again, the backlog exactly once in order, then live; survives a console restart; Ctrl-C ends it',
    { timeout: 180_000 },
    async () => {
      const { token } = await makeToken('operator', 'listen');
      const local = await localServer();
      const cursorFile = path.join(tmp, 'cursor.json');
      const args = ['--console', app.baseUrl, '--receiver', receiver.slug, '--forward', local.url, '--cursor-file', cursorFile];
      const withToken = { CONSOLE_TOKEN: token }; // the token from the environment, never argv
      try {
        const first = runListen(args, withToken);
        await eventually(async () => first.out().includes('connected'), 20_000, `listen connected: ${first.out()} ${first.err()}`);
        assert.ok(fs.existsSync(cursorFile), 'the starting point is kept at once');
        for (let i = 1; i <= 5; i++) await ingest(`msg_l_${i}`, { binary: i === 3 });
        await eventually(async () => first.lines().length === 5, 15_000, `5 forwarded: ${first.out()}`);
        assert.deepEqual(local.got.map(messageIdOf), ['msg_l_1', 'msg_l_2', 'msg_l_3', 'msg_l_4', 'msg_l_5']);
        // Verbatim: the method, the headers in their order, the bytes.
        const third = local.got[2];
        assert.equal(third.method, 'POST');
        assert.deepEqual(third.body, Buffer.from([0xff, 0x00, 0xfe, 0x7b, 0x0a]));
        const names = third.rawHeaders.filter((_, n) => n % 2 === 0).map((h) => h.toLowerCase());
        assert.ok(names.indexOf('x-zeta') < names.indexOf('webhook-id') && names.indexOf('webhook-id') < names.indexOf('x-alpha'), String(names));
        assert.equal(names.filter((n) => n === 'content-length').length, 1);
        assert.match(first.lines()[0], /^\d{4}-\d\d-\d\dT\S+Z {2}#\d+ {2}msg_l_1 {2}no secret configured {2}→ 202 in \d+ ms$/);
        first.child.kill('SIGKILL');
        await first.exited;

        for (let i = 6; i <= 10; i++) await ingest(`msg_l_${i}`);
        const second = runListen(args, withToken);
        await eventually(async () => second.lines().length === 5, 20_000, `the backlog: ${second.out()} ${second.err()}`);
        assert.deepEqual(local.got.map(messageIdOf).slice(5), ['msg_l_6', 'msg_l_7', 'msg_l_8', 'msg_l_9', 'msg_l_10'], 'exactly those 5, in order');

        // The console stops and starts again on the same data and port: listen reconnects by itself.
        await app.restart();
        await eventually(async () => /connecting again/.test(second.err()), 10_000, 'listen noticed');
        for (let i = 11; i <= 15; i++) await ingest(`msg_l_${i}`);
        await eventually(async () => local.got.length === 15, 30_000, `5 live after the restart: ${second.out()} ${second.err()}`);
        assert.deepEqual(
          local.got.map(messageIdOf),
          Array.from({ length: 15 }, (_, i) => `msg_l_${i + 1}`),
          'none twice, none lost, in order',
        );
        assert.equal(second.child.exitCode, null);

        second.child.kill('SIGINT');
        assert.equal(await second.exited, 0, `Ctrl-C ends it cleanly: ${second.err()}`);
        assert.match(second.out(), /stopped/);
        const saved = JSON.parse(fs.readFileSync(cursorFile, 'utf8'));
        const last = /#(\d+)/.exec(second.lines().at(-1)!)![1];
        assert.equal(saved.after, last, 'the cursor is the last receipt forwarded');

        // --from now skips what came in between.
        await ingest('msg_l_skipped');
        const third2 = runListen([...args, '--from', 'now'], withToken);
        await eventually(async () => third2.out().includes('connected'), 20_000, 'connected from now');
        await ingest('msg_l_16');
        await eventually(async () => local.got.length === 16, 10_000, 'the live one');
        assert.equal(messageIdOf(local.got[15]), 'msg_l_16');
        third2.child.kill('SIGTERM');
        assert.equal(await third2.exited, 0);
      } finally {
        await local.close();
      }
    },
  );

  test(
    'a first run (and --from now) starts at the newest receipt when it connects; a receipt whose body is gone is skipped with one line, never sent empty',
    { timeout: 180_000 },
    async () => {
      const { token } = await makeToken('operator', 'listen now');
      const local = await localServer();
      const made = await as('operator', 'POST', '/api/receivers', { name: 'Listen from now' });
      assert.equal(made.status, 201, made.text);
      const slug = made.body.slug as string;
      const send = async (messageId: string, body: unknown) =>
        fetch(`${app.baseUrl}/ingest/${slug}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': messageId },
          body: JSON.stringify(body),
        }).then((r) => r.arrayBuffer());
      for (let i = 1; i <= 3; i++) await send(`msg_old_${i}`, { n: i });
      // msg_old_2 and msg_old_3 are there but past the stream's horizon, as receipts are whose batch
      // committed while an older transaction (another session, a long one) still runs: their
      // transaction ids are put just ahead of the store's, which the next few writes pass.
      const newest = await withAppDb(app, async (query) => {
        const [{ x }] = await query<{ x: string }>(`select pg_current_xact_id()::text as x`);
        await query(`update console.receipts set tx = ($1::bigint + 4)::text::xid8 where message_id in ('msg_old_2', 'msg_old_3') and receiver_id = $2`, [
          x,
          made.body.id,
        ]);
        // (float8: receipt ids pass 2^31 since their partitions by id, migration 0038; exact as a JS number up to 2^53.)
        return (await query<{ newest: number }>(`select max(id)::float8 as newest from console.receipts where receiver_id = $1`, [made.body.id]))[0].newest;
      });
      const cursorFile = path.join(tmp, 'from-now.json');
      // The token from a file only its owner can read.
      const tokenFile = path.join(tmp, 'token');
      fs.writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
      const args = ['--console', app.baseUrl, '--token-file', tokenFile, '--receiver', slug, '--forward', local.url, '--cursor-file', cursorFile];
      try {
        const first = runListen(args);
        await eventually(async () => first.out().includes('connected'), 20_000, `connected: ${first.out()} ${first.err()}`);
        assert.match(first.out(), new RegExp(`following receipts after ${newest}\\b`), 'now is the newest receipt, settled or not');
        // The store's transactions pass the two held ones; then a live receipt.
        for (let i = 0; i < 8; i++) await ingest(`msg_elsewhere_${i}`);
        await send('msg_live_1', { n: 'live' });
        await eventually(async () => first.lines().length === 1, 15_000, `the live one: ${first.out()}`);
        await new Promise((r) => setTimeout(r, HEARTBEAT_MS * 2));
        assert.deepEqual(local.got.map(messageIdOf), ['msg_live_1'], 'nothing older than the moment it connected');
        first.child.kill('SIGINT');
        assert.equal(await first.exited, 0);

        // While it is away: a receipt whose body a donor erasure then removes, and one that stays.
        await send('msg_gone_1', { type: 'grant.succeeded', data: { email: 'listen.erased@example.org' } });
        const erased = await as('admin', 'POST', '/api/erasures', { email: 'listen.erased@example.org' });
        assert.equal(erased.status, 200, erased.text);
        assert.equal(erased.body.console.receipts.erased, 1);
        await send('msg_live_2', { n: 'kept' });
        const second = runListen(args);
        await eventually(async () => second.lines().length === 2, 20_000, `the backlog: ${second.out()} ${second.err()}`);
        assert.deepEqual(local.got.map(messageIdOf), ['msg_live_1', 'msg_live_2'], 'the erased receipt is not sent, not even empty');
        const [skipped, sent] = second.lines();
        const today = new Date().toISOString().slice(0, 10);
        assert.match(skipped, new RegExp(`#\\d+ {2}msg_gone_1 .*skipped: body erased on ${today} \\(donor erasure\\), not forwarded$`));
        assert.match(sent, /msg_live_2 .*→ 202/);
        second.child.kill('SIGINT');
        assert.equal(await second.exited, 0);
        const savedId = Number(JSON.parse(fs.readFileSync(cursorFile, 'utf8')).after);
        assert.equal(savedId, Number(/#(\d+)/.exec(sent)![1]), 'the cursor moved past the skipped one too');

        // --from now with a saved cursor: what came since is not sent.
        await send('msg_between', { n: 'between' });
        const third = runListen([...args, '--from', 'now']);
        await eventually(async () => third.out().includes('connected'), 20_000, 'connected from now');
        await send('msg_live_3', { n: 'after' });
        await eventually(async () => third.lines().length === 1, 15_000, `the live one: ${third.out()}`);
        assert.deepEqual(local.got.map(messageIdOf).slice(2), ['msg_live_3']);
        third.child.kill('SIGTERM');
        assert.equal(await third.exited, 0);
      } finally {
        await local.close();
      }
    },
  );

  test(
    'the token never on the command line: --token is refused, and so are a missing token and a token file others can read, each with the fix',
    { timeout: 60_000 },
    async () => {
      const base = ['--console', app.baseUrl, '--receiver', receiver.slug, '--forward', 'http://127.0.0.1:9/webhooks'];
      const open = path.join(tmp, 'open-token');
      fs.writeFileSync(open, 'gcc_pat_readable_by_all\n', { mode: 0o644 });
      fs.chmodSync(open, 0o644); // whatever the umask
      const emptyFile = path.join(tmp, 'empty-token');
      fs.writeFileSync(emptyFile, '\n', { mode: 0o600 });
      const cases: [string[], Record<string, string>, string][] = [
        [
          [...base, '--token', 'gcc_pat_on_argv'],
          {},
          'listen: --token on the command line is visible to every user of this machine (ps): set CONSOLE_TOKEN in the environment, or pass --token-file <a file only you can read>.',
        ],
        [
          [...base, '--token=gcc_pat_on_argv'],
          { CONSOLE_TOKEN: 'gcc_pat_x' },
          'listen: --token on the command line is visible to every user of this machine (ps): set CONSOLE_TOKEN in the environment, or pass --token-file <a file only you can read>.',
        ],
        [
          base,
          {},
          'listen: no token: set CONSOLE_TOKEN in the environment, or pass --token-file <a file only you can read> (make one at Tokens in the console).',
        ],
        [[...base, '--token-file', open], {}, `listen: ${open} is open to other users of this machine (mode 644): chmod 600 ${open}, then start again.`],
        [[...base, '--token-file', path.join(tmp, 'no-such-file')], {}, `listen: cannot read --token-file ${path.join(tmp, 'no-such-file')} (ENOENT).`],
        [[...base, '--token-file', emptyFile], {}, `listen: ${emptyFile} holds no token.`],
      ];
      for (const [args, env, line] of cases) {
        const run = runListen(args, env);
        assert.equal(await run.exited, 1, run.out());
        assert.equal(run.err().trim(), line);
        assert.ok(!run.err().includes('gcc_pat_'), 'the token is never printed back');
      }
    },
  );

  test('a revoked or expired token: one clear line on stderr, exit code 1', { timeout: 120_000 }, async () => {
    const local = await localServer();
    try {
      const revoked = await makeToken('operator', 'to revoke');
      assert.equal((await as('operator', 'DELETE', `/api/tokens/${revoked.id}`)).status, 204);
      assert.ok(expiring.token, 'the first tokens test made a token and moved it past its expiry');
      for (const [token, why] of [
        [revoked.token, /revoked/],
        [expiring.token, /expired/],
      ] as const) {
        const run = runListen(
          ['--console', app.baseUrl, '--receiver', receiver.slug, '--forward', local.url, '--cursor-file', path.join(tmp, `c-${Date.now()}.json`)],
          { CONSOLE_TOKEN: token },
        );
        assert.equal(await run.exited, 1);
        const lines = run.err().trim().split('\n');
        assert.equal(lines.length, 1, run.err());
        assert.match(lines[0], why);
        assert.match(lines[0], /^listen: the console refused \(401\)/);
      }
      assert.equal(local.got.length, 0);
    } finally {
      await local.close();
    }
  });
});
