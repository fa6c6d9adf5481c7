import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { onCleanup } from './cleanup';
import { startSink, type TTimedArrival } from './sink';

// The peak section's receivers in a process of their own: the bench process also sends grants at a
// set pace, and a receiver on its event loop would stamp arrivals when that loop gets to them —
// bunched by the load generator, not by the service. Its arrivals come back by wall-clock ms,
// turned into this process's performance.now().

export type TRemoteSink = { origin: string; timed: (prefix: string) => Promise<TTimedArrival[]>; close: () => Promise<void> };

export async function startSinkProcess(): Promise<TRemoteSink> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'sink-process.ts'), '--child'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const close = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0].trim());
    });
    void exited.then(() => reject(new Error('the sink process exited before it listened')));
  });
  return {
    origin,
    timed: async (prefix) => {
      const rows = (await (await fetch(`${origin}/sink/__timed?prefix=${encodeURIComponent(prefix)}`)).json()) as TTimedArrival[];
      return rows.map((a) => ({ ...a, at: a.at - performance.timeOrigin }));
    },
    close,
  };
}

if (process.argv.includes('--child')) {
  const sink = await startSink();
  process.stdout.write(`${sink.origin}\n`);
  process.once('SIGTERM', () => void sink.close().then(() => process.exit(0)));
}
