import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './app';

// A PostgreSQL server of the test's own (initdb + pg_ctl in a temp directory), for tests that stop
// and start the database: the shared one must not be touched. As root (initdb refuses root) the
// cluster runs as the `postgres` user.

const run = promisify(execFile);

/** The bin directory of the newest installed PostgreSQL with initdb and pg_ctl; null without one. */
export function postgresBinDir(): string | null {
  const roots = ['/usr/lib/postgresql'];
  const found = roots
    .filter((r) => fs.existsSync(r))
    .flatMap((r) => fs.readdirSync(r).map((v) => path.join(r, v, 'bin')))
    .filter((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')))
    .sort((a, b) => Number(/(\d+)\/bin$/.exec(b)?.[1]) - Number(/(\d+)\/bin$/.exec(a)?.[1]));
  return found[0] ?? null;
}

export type TScratchPostgres = { url: (database?: string) => string; stop: () => Promise<void>; start: () => Promise<void>; destroy: () => Promise<void> };

/** Initialises and starts a cluster on a free loopback port (trust auth, user postgres). */
export async function startScratchPostgres(bin: string): Promise<TScratchPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-scratch-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['-R', 'postgres:postgres', dir]);
  const as = (cmd: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : run(path.join(bin, cmd), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await as('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const start = async () => void (await as('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']));
  // fast: what an operator's restart does (sessions ended with 57P01, then connections refused).
  const stop = async () => void (await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']));
  await start();
  let stopped = false;
  return {
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    destroy: async () => {
      if (stopped) return;
      stopped = true;
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
