import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BackupBusyError, describeHold, writeBackup } from '@/lib/db/backup/snapshot';
import { embeddedStore } from '@/lib/db/client';
import { isStoreUnavailable } from '@/lib/db/store-availability';
import { env } from '@/lib/env';
import { processSingleton } from '@/lib/process-singleton';
import { runConsoleCommand, STORE_COMMANDS, type TCommandInput } from './console-commands';
import { newControlToken, removeControlFile, tokenMatches, writeControlFile } from './control-file';

// The running app's door for its own CLI while it owns the embedded store: an HTTP server on
// 127.0.0.1 at a port the system picks, which only a request bearing the token of DATA_DIR's
// control file (mode 0600, control-file.ts) may use. `npm run console -- users:add …` then works
// while the app runs — the app runs the command on the store it holds — and `backup` streams the
// tarball from here. Nothing else is served; the public port knows nothing of it.
//   POST /command  {"argv": [...], "input": {"password"?, "secret"?}}  → {"code", "out": [lines], "err": [lines]}
//   POST /backup                    → the backup (application/gzip), its manifest in X-Backup-Manifest

const MAX_BODY = 64 * 1024;
const state = processSingleton('control-server', (): { server?: http.Server; token?: string } => ({}));

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isCommandInput(value: unknown): value is TCommandInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([k, v]) => (k === 'password' || k === 'secret') && (v === undefined || typeof v === 'string'));
}

async function runCommand(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  let argv: unknown;
  let input: unknown;
  try {
    ({ argv, input = {} } = JSON.parse(await readBody(req)) as { argv?: unknown; input?: unknown });
  } catch {
    return answer(res, 400, { error: 'The body must be JSON: {"argv": ["users:add", …]}.' });
  }
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return answer(res, 400, { error: 'argv must be an array of strings.' });
  if (!isCommandInput(input)) return answer(res, 400, { error: 'input must be an object of optional strings: {"password"?, "secret"?}.' });
  if (!STORE_COMMANDS.has(argv[0] as string)) return answer(res, 400, { error: `${String(argv[0])} is not a command the running app runs.` });
  const out: string[] = [];
  const err: string[] = [];
  try {
    const code = await runConsoleCommand(argv as string[], { out: (l) => out.push(l), err: (l) => err.push(l) }, input);
    answer(res, 200, { code, out, err });
  } catch (e) {
    const unavailable = isStoreUnavailable(e);
    answer(res, unavailable ? 503 : 500, {
      code: 1,
      out,
      err: [...err, unavailable ? `The store cannot take it now (${(e as Error).message.split('\n')[0]}); try again.` : (e as Error).message.split('\n')[0]],
    });
  }
}

async function streamBackup(res: http.ServerResponse): Promise<void> {
  const store = await embeddedStore();
  if (!store) return answer(res, 400, { error: 'This app runs on PostgreSQL (DATABASE_URL): back it up with pg_dump.' });
  let started = false;
  const startedAt = Date.now();
  let hold = '';
  try {
    await writeBackup(store, res, {
      onSnapshot: (manifest, times) => {
        started = true;
        hold = describeHold(times);
        res.writeHead(200, {
          'content-type': 'application/gzip',
          'x-backup-manifest': Buffer.from(JSON.stringify(manifest)).toString('base64'),
          'cache-control': 'no-store',
        });
      },
    });
    console.log(`backup for the CLI: ${hold}, sent in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  } catch (e) {
    console.error(`backup requested by the CLI failed: ${(e as Error).message.split('\n')[0]}`);
    if (!started) answer(res, e instanceof BackupBusyError ? 409 : isStoreUnavailable(e) ? 503 : 500, { error: (e as Error).message.split('\n')[0] });
    else res.destroy(); // the CLI sees a cut stream and keeps no partial file
  }
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const presented = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  if (!state.token || !tokenMatches(presented, state.token)) return answer(res, 401, { error: 'The control token is missing or wrong.' });
  const route = `${req.method} ${req.url}`;
  const work =
    route === 'POST /command'
      ? runCommand(req, res)
      : route === 'POST /backup'
        ? streamBackup(res)
        : Promise.resolve(answer(res, 404, { error: 'No such control route.' }));
  work.catch((e: Error) => {
    if (!res.headersSent) answer(res, 500, { error: e.message.split('\n')[0] });
    else res.destroy();
  });
}

/** Starts the control server of a process that owns the embedded store, and writes DATA_DIR's control file. */
export async function startControlServer(): Promise<void> {
  if (state.server || !(await embeddedStore())) return;
  const token = newControlToken();
  const server = http.createServer(handle);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  server.unref();
  state.server = server;
  state.token = token;
  writeControlFile(env.DATA_DIR, { port: (server.address() as AddressInfo).port, token, pid: process.pid });
  process.once('exit', () => removeControlFile(env.DATA_DIR)); // a second signal exits without stopping the parts
}

export async function stopControlServer(): Promise<null | void> {
  const server = state.server;
  if (!server) return null;
  state.server = undefined;
  state.token = undefined;
  removeControlFile(env.DATA_DIR);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
