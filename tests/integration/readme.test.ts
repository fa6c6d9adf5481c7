import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { startApp } from '../helpers/app';
import { call, staffCookie } from '../helpers/http';

// @ci-one-store: CI runs this file in the embedded-store pass only (what it checks is the same on any store).
// The quick start's shell walkthrough (docs/GUIDE.md, "First steps from a shell"), run as written against a fresh app: if it drifts, this fails.

const ROOT = path.resolve(import.meta.dirname, '../..');
let app: Awaited<ReturnType<typeof startApp>>;
before(async () => {
  app = await startApp();
});
after(() => app?.stop());

test('the guide\'s shell walkthrough gives a grant whose grant.succeeded arrives signed and verified', async () => {
  const readme = fs.readFileSync(path.join(ROOT, 'docs/GUIDE.md'), 'utf8');
  const block = /```sh\n(BASE=[\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, 'docs/GUIDE.md has the walkthrough block');
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', block], { env: { ...process.env, BASE: app.baseUrl }, timeout: 60_000 });
  const lines = stdout.trim().split('\n');
  assert.match(lines[0], /^GC-[A-Z0-9]{6}$/, 'the tracking id');
  assert.equal(lines[1], 'success');
  assert.equal(lines[2], '200');
  const ep = /webhooks\/(ep_\w+)/.exec(lines[3])?.[1];
  assert.ok(ep, stdout);

  // …and the console joined it with what its receiver stored: verified.
  const cookie = await staffCookie(app);
  const timeline = await call(app, 'GET', `/api/webhooks/${ep}/timeline`, { headers: { cookie } });
  assert.equal(timeline.status, 200, timeline.text);
  const [message] = timeline.body.messages;
  assert.equal(message.reconciliation, 'delivered-and-received');
  assert.equal(message.receipts[0].verdict, 'valid');
});
