import { spawn } from 'node:child_process';
import path from 'node:path';
import { onCleanup } from './cleanup';
import type { TStore } from './config';
import { BENCH_SECRET } from './signed-body';
import { freshStore, withSql } from './stores';

// The ingest baselines' lifecycle: a bare-server.ts process on a fresh store of its own, stopped
// and its store dropped at the end; receipts counted from the store after it stops.

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(import.meta.dirname, 'bare-server.ts');

export type TBareMode = 'one' | 'group' | 'group-search' | 'one-search';

export type TBareServer = {
  name: string;
  origin: string;
  pid: () => number | undefined;
  /** Its PostgreSQL database (for the CPU of its backends); undefined on PGlite. */
  databaseUrl: string | undefined;
  stop: () => Promise<void>;
  /** Stops the server; then the rows it stored for its receiver. */
  stopAndCount: () => Promise<number>;
  /** Removes its store (after stopAndCount). */
  drop: () => Promise<void>;
};

export async function startBareServer(store: TStore, mode: TBareMode, maxBatch: number): Promise<TBareServer> {
  const fresh = await freshStore(store, `bare_${mode.replace('-', '_')}`);
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: ROOT,
    env: { ...process.env, BARE_STORE: store, BARE_TARGET: fresh.target, BARE_MODE: mode, BARE_MAX_BATCH: String(maxBatch), BARE_SECRET: BENCH_SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => (log += d));
  const ready = await new Promise<{ port: number; receiverId: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bare ${mode} server not ready in 60 s:\n${log}`)), 60_000);
    child.stdout.on('data', (d) => {
      log += d;
      const m = /READY (\d+) (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ port: Number(m[1]), receiverId: m[2] });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bare ${mode} server exited (${code}):\n${log}`));
    });
  }).catch(async (err) => {
    child.kill('SIGKILL');
    await fresh.drop();
    throw err;
  });
  const exited = new Promise<void>((r) => (child.exitCode !== null ? r() : child.once('exit', () => r())));
  const stop = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  });
  return {
    name: {
      one: 'bare, one INSERT per request',
      group: 'bare, group commit',
      'group-search': 'bare, group commit + search',
      'one-search': 'bare, one INSERT + search',
    }[mode],
    origin: `http://127.0.0.1:${ready.port}`,
    pid: () => child.pid,
    databaseUrl: store === 'postgres' ? fresh.target : undefined,
    stop,
    stopAndCount: async () => {
      await stop();
      const [row] = await withSql(store, fresh.target, (sql) =>
        sql(`select count(*)::int as n from console.receipts where receiver_id = '${ready.receiverId}'`),
      );
      return Number(row.n);
    },
    drop: fresh.drop,
  };
}
