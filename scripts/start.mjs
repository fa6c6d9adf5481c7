#!/usr/bin/env node
// `npm start`: check the configuration, build when the sources changed since the last build,
// then serve the production build (embedded store, sandbox service, console) on PORT.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };

const check = spawnSync(bin('tsx'), ['scripts/check-env.ts', '--print-port'], { env, encoding: 'utf8' });
if (check.status !== 0) {
  process.stderr.write(check.stderr);
  process.exit(1);
}
const port = check.stdout.trim().split('\n').pop();

const distDir = path.join(root, process.env.NEXT_DIST_DIR || '.next');
const buildId = path.join(distDir, 'BUILD_ID');
function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}
const sources = ['app', 'components', 'lib', 'public'].filter((d) => fs.existsSync(d));
const extra = ['next.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'instrumentation.ts', 'proxy.ts', 'postcss.config.mjs'].filter((f) => fs.existsSync(f));
const stale =
  !fs.existsSync(buildId) ||
  Math.max(...sources.map(newestSource), ...extra.map((f) => fs.statSync(f).mtimeMs)) > fs.statSync(buildId).mtimeMs;
if (stale) {
  console.log('Building the app (first start, or the sources changed)…');
  const build = spawnSync(bin('next'), ['build'], { env, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [path.join(root, 'scripts/server.mjs')], { env: { ...env, PORT: port }, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
