// Own app: it starts apps with bad settings, on taken ports, with no HOST, and kills one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DIST_DIR, SERVER, canBindIpv6, freePort, runCli, startApp } from '../helpers/app';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { call, staffCookie } from '../helpers/http';

const ROOT = path.resolve(import.meta.dirname, '../..');

let app: Awaited<ReturnType<typeof startApp>>;
before(async () => {
  // No HOST, as a fresh install runs (startApp would set one).
  app = await startApp({ env: { HOST: '' } });
});
after(() => app?.stop());

test('every response has X-Request-Id, unknown /v1 paths are problem 404s', async () => {
  const res = await call(app, 'GET', '/v1/does-not-exist');
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
  assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
});

/** Whether a TCP connection to `address`:`port` is taken (only ever this machine's own addresses). */
function connects(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: address, port, timeout: 3000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

test('with no HOST the app listens on loopback only, IPv4 and IPv6, and says how to open it', async (t) => {
  assert.equal(await connects('127.0.0.1', app.port), true);
  if (await canBindIpv6()) assert.equal(await connects('::1', app.port), true, 'localhost works whichever address it resolves to');
  // This machine's own addresses that are not loopback (link-local ones need a scope: left out).
  const own = Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal && !i.address.startsWith('fe80'))
    .map((i) => i!.address);
  for (const address of own) assert.equal(await connects(address, app.port), false, `not reachable on ${address}`);
  if (own.length === 0) t.diagnostic('this machine has no address but loopback: nothing else to try');
  assert.match(
    app.logs(),
    new RegExp(
      `listening on http://127\\.0\\.0\\.1:${app.port}( and http://\\[::1\\]:${app.port})?: this machine only \\(open http://localhost:${app.port}\\); .*set HOST=0\\.0\\.0\\.0`,
    ),
  );
});

/** Starts the server with DELIVERY_TIMEOUT_MS=soon from the build in `distDir`; asserts it stops with the one line naming it. */
async function startsWithBadSetting(distDir: string, dataDir: string): Promise<void> {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...app.env,
      PORT: String(await freePort()),
      NEXT_DIST_DIR: distDir,
      DELIVERY_TIMEOUT_MS: 'soon',
      DATA_DIR: path.join(app.env.DATA_DIR || '/tmp', dataDir),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.match(stderr, /^Invalid configuration: DELIVERY_TIMEOUT_MS must be a whole number \(got "soon"\)$/m);
}

test('a bad setting stops the start with one line naming it', async () => {
  await startsWithBadSetting(DIST_DIR, 'unused');
});

test('the admin password and sandbox secret published with earlier releases are refused at start, one line each, the value never printed', async () => {
  for (const [key, value] of [
    ['CONSOLE_ADMIN_PASSWORD', 'console-admin-123'],
    ['SANDBOX_CLIENT_SECRET', 'sandbox-secret-change-me'],
  ]) {
    const child = spawn(process.execPath, [SERVER], {
      cwd: ROOT,
      env: { ...process.env, ...app.env, PORT: String(await freePort()), [key]: value, DATA_DIR: path.join(app.env.DATA_DIR || '/tmp', 'unused-published') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1, output);
    assert.deepEqual(
      output.split('\n').filter((line) => line.includes(key)),
      [
        `Invalid configuration: ${key} is the published default of earlier releases, which anyone may know: choose another, or leave it unset to have one generated at the first start (got ${value.length} characters)`,
      ],
    );
    assert.ok(!output.includes(value), 'the value is not printed');
  }
});

test('the settings come from one module compiled once per build; without a build, through tsx, with the same one line', async () => {
  const buildId = fs.readFileSync(path.join(ROOT, DIST_DIR, 'BUILD_ID'), 'utf8').trim();
  assert.ok(fs.existsSync(path.join(ROOT, DIST_DIR, `server-deps-${buildId}.mjs`)), 'the app started from the compiled module');
  const none = `.next-none-${process.pid}`;
  await startsWithBadSetting(none, 'unused-3');
  assert.equal(fs.existsSync(path.join(ROOT, none)), false, 'nothing written where there is no build');
});

test('a second process on the same embedded store is refused with a clear message', async (t) => {
  if (app.env.DATABASE_URL) return t.skip('PostgreSQL is shared by design');
  await assert.rejects(runCli('service-cli', ['clients:list'], app.env), (err: Error & { stderr?: string }) => {
    assert.match(err.stderr ?? '', /in use by another process \(pid \d+\)/);
    return true;
  });
  // …and the running app is unharmed.
  assert.equal((await call(app, 'GET', '/api/health')).status, 200);
});

test('the receiver stores the real peer address and the headers exactly as they arrived', async () => {
  const cookie = await staffCookie(app);
  const receiver = await call(app, 'POST', '/api/receivers', { body: { name: 'raw headers' }, headers: { cookie } });
  assert.equal(receiver.status, 201, receiver.text);
  // node:http keeps header case and order as written; fetch would normalise them.
  const { status, receiptId } = await new Promise<{ status: number; receiptId: string }>((resolve, reject) => {
    const req = http.request(`${app.baseUrl}/ingest/${receiver.body.slug}/?a=1`, {
      method: 'POST',
      // As a raw list, node:http adds no Host or Content-Length of its own.
      headers: [
        'Host',
        `127.0.0.1:${app.port}`,
        'X-Forwarded-For',
        '6.6.6.6',
        'X-Custom-Case',
        'One',
        'Content-Type',
        'text/plain',
        'x-custom-case',
        'Two',
        'Content-Length',
        '5',
      ],
    });
    req.on('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, receiptId: String(res.headers['x-receipt-id']) });
    });
    req.on('error', reject);
    req.end('hello');
  });
  assert.equal(status, 200, `a trailing slash is served, not redirected (got ${status})`);
  const receipt = await call(app, 'GET', `/api/receipts/${receiptId}`, { headers: { cookie } });
  assert.equal(receipt.status, 200, receipt.text);
  assert.equal(receipt.body.sourceIp, '127.0.0.1', 'a client-sent X-Forwarded-For does not choose the source address');
  const names = receipt.body.headers.map(([name]: [string]) => name);
  assert.deepEqual(
    receipt.body.headers.filter(([name]: [string]) => /custom/i.test(name)),
    [
      ['X-Custom-Case', 'One'],
      ['x-custom-case', 'Two'],
    ],
  );
  assert.ok(names.includes('X-Forwarded-For'), 'what the sender sent is kept');
  assert.ok(!names.some((n: string) => /^x-forwarded-(host|port|proto)$/i.test(n)), "Next's own x-forwarded-* are not shown as sent");
  assert.ok(!names.includes('x-gc-raw-headers'));
  assert.equal(receipt.body.bodyText, 'hello');
});

test('a port in use stops the start with one clear line', async () => {
  const child = spawn(process.execPath, [SERVER], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...app.env,
      HOST: '127.0.0.1',
      PORT: String(app.port),
      DATA_DIR: path.join(app.env.DATA_DIR || '/tmp', 'unused-2'),
      NEXT_DIST_DIR: DIST_DIR,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.match(stderr, new RegExp(`Port ${app.port} is already in use`));
});

test("after kill -9 the embedded store starts again at once, even when the dead owner's pid now names another process", async (t) => {
  if (app.env.DATABASE_URL) return t.skip('PostgreSQL needs no lock file');
  // The file's app (no other test uses it after this one): killed and started again on its own store.
  const lock = path.join(app.env.DATA_DIR, 'owner.lock');
  const written = JSON.parse(fs.readFileSync(lock, 'utf8'));
  assert.equal(typeof written.pid, 'number');
  assert.match(String(written.start), /^\d+$/, 'the lock records when its owner started');
  // A live process that is not the owner (as a reused pid would be), and a zombie (exited, never reaped).
  const stranger = spawn('sleep', ['30']);
  const zombieParent = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const zombiePid = Number(await new Promise<string>((resolve) => zombieParent.stdout!.once('data', (d) => resolve(String(d).trim()))));
  t.after(() => {
    stranger.kill('SIGKILL');
    zombieParent.kill('SIGKILL');
  });
  for (const [name, content] of [
    ['its pid reused by another process', JSON.stringify({ pid: stranger.pid, start: '1' })],
    ["a previous release's lock (a bare pid) now naming a process that is not node", String(stranger.pid)],
    ['its pid a zombie', JSON.stringify({ pid: zombiePid, start: written.start })],
  ]) {
    await app.kill();
    fs.writeFileSync(lock, content);
    // A lock taken for a live owner's refuses the start at once (lib/db/lock.ts never waits): the
    // restart failing is what would show it, not its time (41 s at load 25, with nothing wrong).
    await app.restart();
    assert.equal((await call(app, 'GET', '/api/health')).status, 200, name);
  }
});

test('an app a test file started and never stopped does not keep the file running: it ends, and the app with it', { timeout: 120_000 }, async () => {
  // As when one start of a Promise.all fails: the other app is never assigned, so nothing stops it.
  const script = `import { startApp } from './tests/helpers/app.ts';
    const app = await startApp();
    console.log(JSON.stringify({ pid: app.pid() }));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    env: { ...process.env, TEST_SHARED_APPS: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  const ended = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 90_000);
    child.once('exit', () => (clearTimeout(timer), resolve(true)));
  });
  if (!ended) child.kill('SIGKILL');
  const { pid } = JSON.parse(out.trim().split('\n').pop() || '{}') as { pid?: number };
  assert.ok(pid, `the script printed its app's pid: ${out}`);
  // SIGKILL is delivered as the script exits; a killed app not yet reaped is a zombie, as good as gone.
  const running = () => {
    try {
      return !/^State:\s+Z/m.test(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    } catch {
      return false;
    }
  };
  let alive = running();
  for (let i = 0; alive && i < 50; i++) alive = (await new Promise((r) => setTimeout(r, 100)), running());
  if (alive) process.kill(pid, 'SIGKILL');
  assert.equal(ended, true, 'the test process ended on its own');
  assert.equal(alive, false, 'its app was stopped with it');
});
