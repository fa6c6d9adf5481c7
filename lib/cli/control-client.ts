import type fs from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { TManifest } from '@/lib/db/backup/manifest';
import { ownerAlive } from '@/lib/db/lock';
import { readControlFile, type TControl } from './control-file';
import type { TCommandInput, TCommandIo } from './console-commands';

// The CLI's side of the running app's control server (control-server.ts): finds the app through
// DATA_DIR's control file and asks it. No file, or an app that is gone (killed, its file left
// behind): null, and the CLI opens the store itself.

export type TRunningApp = {
  pid: number;
  /** Runs a command in the app; `input` (a password or secret read from stdin) travels in the request body, never in argv. */
  command: (argv: string[], io: TCommandIo, input?: TCommandInput) => Promise<number>;
  /** Writes the app's backup to `out`; its manifest. */
  backup: (out: fs.WriteStream) => Promise<TManifest>;
};

function request(control: TControl, pathName: string, body: string): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: control.port,
        path: pathName,
        method: 'POST',
        headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      resolve,
    );
    req.once('error', reject);
    req.end(body);
  });
}

async function readJson<T>(res: http.IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/** The app running on `dataDir`, reachable over loopback; null when no app holds it. */
export async function runningApp(dataDir: string): Promise<TRunningApp | null> {
  const control = readControlFile(dataDir);
  if (!control || !ownerAlive({ pid: control.pid, start: null })) return null;
  return {
    pid: control.pid,
    command: async (argv, io, input = {}) => {
      const res = await request(control, '/command', JSON.stringify({ argv, input }));
      const body = await readJson<{ code?: number; out?: string[]; err?: string[]; error?: string }>(res);
      for (const line of body.out ?? []) io.out(line);
      for (const line of body.err ?? []) io.err(line);
      if (body.error) io.err(body.error);
      return body.code ?? 1;
    },
    backup: async (out) => {
      const res = await request(control, '/backup', '');
      if (res.statusCode !== 200) {
        const { error } = await readJson<{ error?: string }>(res).catch(() => ({ error: `HTTP ${res.statusCode}` }));
        throw new Error(`The running app (pid ${control.pid}) could not take the backup: ${error}`);
      }
      const manifest = JSON.parse(Buffer.from(String(res.headers['x-backup-manifest'] ?? ''), 'base64').toString('utf8')) as TManifest;
      // A stream the app cut (its backup failed half-way) ends in 'aborted': an error here, no file kept.
      res.once('aborted', () => res.destroy(new Error(`The running app (pid ${control.pid}) stopped sending the backup half-way; see its log.`)));
      await pipeline(res, out);
      if (!res.complete) throw new Error(`The running app (pid ${control.pid}) stopped sending the backup half-way; see its log.`);
      return manifest;
    },
  };
}
