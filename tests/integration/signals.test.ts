import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ADMIN, DIST_DIR, freshDataDir, freePort, runCli, SANDBOX } from '../helpers/app';
import { call, eventually, sleep, token } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// What a supervisor does (systemd, Docker, `kill $!` after `npm start &`): signal the main pid
// only, here npm's. npm passes it on, the app stops within SHUTDOWN_GRACE_MS + 2 s, nothing of it
// is left running, and the embedded store opens again at once.

const ROOT = path.resolve(import.meta.dirname, '../..');
const GRACE_MS = 4000;

/** Every process under `pid` (children, grandchildren…), from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]);
  } catch {
    return false;
  }
}

type TNpm = { proc: ChildProcess; out: () => string; exited: Promise<number | null> };

function npm(args: string[], env: Record<string, string>): TNpm {
  const proc = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return { proc, out: () => out, exited };
}

/** Sends `signal` to npm's pid; resolves with its exit code and how long until none of its processes ran. */
async function signalAndWait(n: TNpm, signal: NodeJS.Signals, tree: number[]): Promise<{ code: number | null; ms: number; left: number[] }> {
  const started = Date.now();
  n.proc.kill(signal);
  const code = await Promise.race([n.exited, sleep(GRACE_MS + 10_000).then(() => -1)]);
  await eventually(async () => tree.every((p) => !running(p)), GRACE_MS + 4000, 'every process of the tree to end').catch(() => {});
  return { code, ms: Date.now() - started, left: tree.filter(running) };
}

async function assertStoreFree(store: Record<string, string>): Promise<void> {
  assert.equal(fs.existsSync(path.join(store.DATA_DIR, 'owner.lock')), false, 'the lock is released');
  // Another process opens the store (a refused one would throw "in use by another process").
  await runCli('service-cli', ['clients:list'], { ...store, NODE_ENV: 'production' });
}

function appEnv(store: Record<string, string>, port: number): Record<string, string> {
  return {
    ...store,
    NODE_ENV: 'production',
    NEXT_DIST_DIR: DIST_DIR,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SHUTDOWN_GRACE_MS: String(GRACE_MS),
    DELIVERY_ALLOW_PRIVATE: 'true',
    NEXT_TELEMETRY_DISABLED: '1',
    CONSOLE_ADMIN_PASSWORD: ADMIN.password,
    SANDBOX_CLIENT_SECRET: SANDBOX.clientSecret,
  };
}

test('SIGTERM to the `npm start` pid: the app stops within SHUTDOWN_GRACE_MS + 2 s, nothing is left, the store opens again', async (t) => {
  const store = await freshDataDir();
  const port = await freePort();
  const n = npm(['start'], appEnv(store, port));
  t.after(() => {
    for (const p of descendants(n.proc.pid!)) process.kill(p, 'SIGKILL');
    n.proc.kill('SIGKILL');
  });
  await eventually(async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).status === 200, 90_000, `npm start to be ready:\n${n.out()}`);
  const tree = descendants(n.proc.pid!);
  assert.ok(tree.length >= 2, `npm runs start.mjs, which runs server.mjs (${tree.length})`);
  const { code, ms, left } = await signalAndWait(n, 'SIGTERM', tree);
  t.diagnostic(`stopped in ${ms} ms`);
  assert.deepEqual(left, [], `nothing left running:\n${n.out()}`);
  assert.equal(code, 0, n.out());
  assert.ok(ms < GRACE_MS + 2000, `stopped in ${ms} ms`);
  assert.match(n.out(), /SIGTERM: stopping/);
  await assertStoreFree(store);
});

test('a second SIGTERM, a moment after the first, stops at once while a delivery holds the first stop', async (t) => {
  const store = await freshDataDir();
  const port = await freePort();
  const receiver = await startReceiver();
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  const n = npm(['start'], { ...appEnv(store, port), SHUTDOWN_GRACE_MS: '60000' });
  t.after(async () => {
    release();
    for (const p of descendants(n.proc.pid!)) process.kill(p, 'SIGKILL');
    n.proc.kill('SIGKILL');
    await receiver.close();
  });
  const app = { baseUrl: `http://127.0.0.1:${port}` };
  await eventually(async () => (await fetch(`${app.baseUrl}/api/ready`)).status === 200, 90_000, `npm start to be ready:\n${n.out()}`);
  const tok = await token(app);
  const ep = receiver.endpoint(() => ({ hold: held }));
  const webhook = await call(app, 'POST', '/v1/webhooks', { token: tok, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
  assert.equal((await call(app, 'POST', `/v1/webhooks/${webhook.body.id}/test`, { token: tok })).status, 200);
  await eventually(async () => ep.requests().length === 1, 15_000, 'the delivery to be in flight');
  const tree = descendants(n.proc.pid!);
  n.proc.kill('SIGTERM');
  await sleep(1500);
  assert.ok(tree.every(running), 'the first SIGTERM waits for the delivery in flight (grace 60 s)');
  const { code, ms, left } = await signalAndWait(n, 'SIGTERM', tree);
  t.diagnostic(`stopped ${ms} ms after the second SIGTERM`);
  assert.deepEqual(left, [], n.out());
  assert.ok(ms < 3000, `stopped at once (${ms} ms)`);
  assert.notEqual(code, 0, 'an interrupted stop is not a clean exit');
  assert.match(n.out(), /SIGTERM again: stopping at once/);
  await assertStoreFree(store);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the \`npm run worker\` pid: the worker stops, nothing is left, the store opens again`, async (t) => {
    const store = await freshDataDir();
    const healthPort = await freePort();
    const n = npm(['run', 'worker'], { ...store, SHUTDOWN_GRACE_MS: String(GRACE_MS), WORKER_HEALTH_PORT: String(healthPort), HOST: '127.0.0.1' });
    t.after(() => {
      for (const p of descendants(n.proc.pid!)) process.kill(p, 'SIGKILL');
      n.proc.kill('SIGKILL');
    });
    const ready = await eventually(
      async () => {
        const res = await fetch(`http://127.0.0.1:${healthPort}/ready`);
        return res.status === 200 && res.json();
      },
      60_000,
      `the worker to be ready:\n${n.out()}`,
    );
    assert.deepEqual(Object.keys(ready.checks).sort(), ['delivery worker', 'migrations', 'store']);
    assert.equal((await fetch(`http://127.0.0.1:${healthPort}/health`)).status, 200);
    const tree = descendants(n.proc.pid!);
    assert.ok(tree.length >= 1);
    const { code, ms, left } = await signalAndWait(n, signal, tree);
    t.diagnostic(`stopped in ${ms} ms`);
    assert.deepEqual(left, [], n.out());
    assert.equal(code, 0, n.out());
    assert.ok(ms < GRACE_MS + 2000, `stopped in ${ms} ms`);
    assert.match(n.out(), new RegExp(`${signal}: stopping`));
    await assertStoreFree(store);
  });
}
