// The staff command line as a process, and what the backup tests share (backup.test.ts, backup-live.test.ts, backup-postgres.test.ts).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { disposeAtExit, type TApp } from './app';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export type TCli = { code: number; out: string; err: string };
/** `npm run console -- …args` as a process; `stdin` is piped to it (a chosen password or secret), else its stdin is empty; `nodeArgs` go to its node (a preload). */
export function cli(args: string[], env: Record<string, string>, stdin = '', nodeArgs: string[] = []): Promise<TCli> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', ...nodeArgs, path.join(ROOT, 'scripts/console-cli.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, out, err) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
    child.stdin!.end(stdin);
  });
}
export const lastJson = (r: TCli) => JSON.parse(r.out.trim().split('\n').pop() ?? '{}');
export const storeEnv = (dir: string) => ({ DATA_DIR: dir, DATABASE_URL: '' });
/** A path in a fresh temporary folder (removed when the test process ends), which does not exist yet. */
export function scratchPath(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gc-backup-test-'));
  disposeAtExit({ DATA_DIR: dir });
  return path.join(dir, name);
}

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
export function signedIngest(app: TApp, slug: string, secret: string, body: string): Promise<Response> {
  const id = `msg_${randomBytes(10).toString('hex')}`;
  const at = new Date();
  const signature = new Webhook(secret).sign(id, at, body);
  return fetch(`${app.baseUrl}/ingest/${slug}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  });
}
