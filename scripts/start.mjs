#!/usr/bin/env node
// `npm start`: check the configuration, build when the sources changed since the last build,
// then serve the production build (embedded store, sandbox service, console) on PORT.
// SIGTERM and SIGINT go to the step running (the build, then the server), and this process exits
// with its code: a supervisor that signals only this process (or npm's, which npm forwards here:
// package.json `exec`s this script so no shell sits between) stops the whole app. A second signal
// a second or more after the first stops the server at once; the same signal arriving twice at
// one instant (a terminal's Ctrl-C reaches the process group, and npm forwards it too) is one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const env = { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };

const SAME_SIGNAL_MS = 1000;
const exitCodeOf = (code, signal) => code ?? 128 + (os.constants.signals[signal] ?? 0);
let child = null;
let firstSignalAt = 0;
function onSignal(signal) {
  if (!firstSignalAt) firstSignalAt = Date.now();
  else if (Date.now() - firstSignalAt < SAME_SIGNAL_MS) return;
  if (!child) process.exit(exitCodeOf(null, signal));
  child.kill(signal);
  // The server exits at once on a second signal; a step that does not is ended.
  if (Date.now() - firstSignalAt >= SAME_SIGNAL_MS) setTimeout(() => child?.kill('SIGKILL'), 1000).unref();
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, onSignal);

/** Runs one step with the signals forwarded to it; its exit code (128 + n when a signal ended it) and what it printed when captured. */
function run(command, args, { capture = false, extraEnv = {} } = {}) {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child = spawn(command, args, { env: { ...env, ...extraEnv }, stdio: capture ? ['inherit', 'pipe', 'pipe'] : 'inherit' });
    if (capture) {
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
    }
    child.on('exit', (code, signal) => {
      child = null;
      resolve({ code: exitCodeOf(code, signal), stdout, stderr });
    });
  });
}

const check = await run(bin('tsx'), ['scripts/check-env.ts', '--print-port'], { capture: true });
if (check.code !== 0) {
  process.stderr.write(check.stderr);
  process.exit(check.code);
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
const extra = ['next.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json', 'instrumentation.ts', 'proxy.ts', 'postcss.config.mjs'].filter((f) =>
  fs.existsSync(f),
);
const stale = !fs.existsSync(buildId) || Math.max(...sources.map(newestSource), ...extra.map((f) => fs.statSync(f).mtimeMs)) > fs.statSync(buildId).mtimeMs;
if (stale) {
  console.log('Building the app (first start, or the sources changed)…');
  const build = await run(bin('next'), ['build']);
  if (build.code !== 0) process.exit(build.code);
}
if (firstSignalAt) process.exit(0); // told to stop while building: nothing to serve

const server = await run(process.execPath, [path.join(root, 'scripts/server.mjs')], { extraEnv: { PORT: port } });
process.exit(server.code);
