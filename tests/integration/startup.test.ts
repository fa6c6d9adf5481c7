import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DIST_DIR, freePort, runCli, startApp } from '../helpers/app';
import { call } from '../helpers/http';

const ROOT = path.resolve(import.meta.dirname, '../..');

let app: Awaited<ReturnType<typeof startApp>>;
before(async () => {
  app = await startApp();
});
after(() => app?.stop());

test('every response has X-Request-Id, unknown /v1 paths are problem 404s', async () => {
  const res = await call(app, 'GET', '/v1/does-not-exist');
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type') ?? '', /problem\+json/);
  assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
});

test('a bad setting stops the start with one line naming it', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/next/dist/bin/next'), 'start', '-p', String(port)], {
    cwd: ROOT,
    env: { ...process.env, ...app.env, PORT: String(port), NEXT_DIST_DIR: DIST_DIR, DELIVERY_TIMEOUT_MS: 'soon', DATA_DIR: path.join(app.env.DATA_DIR || '/tmp', 'unused') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.match(stderr, /^Invalid configuration: DELIVERY_TIMEOUT_MS must be a whole number \(got "soon"\)$/m);
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
