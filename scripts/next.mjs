#!/usr/bin/env node
// `npm run build` and `npm run dev`: Next.js with its telemetry off, as `npm start` and `npm test`
// run it (NEXT_TELEMETRY_DISABLED=1, set here so it holds on every shell and platform). `dev` listens
// where HOST says, on loopback when it says nothing (as `npm start`; Next's own default is every interface).
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
if (args[0] === 'dev' && !args.some((a) => a === '-H' || a.startsWith('--hostname'))) args.push('--hostname', process.env.HOST || 'localhost');
const child = spawn(path.join(root, 'node_modules/.bin/next'), args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
