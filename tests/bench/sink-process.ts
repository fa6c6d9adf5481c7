import { spawn } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { onCleanup } from './cleanup';
import { startSink, type TTimedArrival } from './sink';

// The peak section's receivers in a process of their own: the bench process also sends grants at a
// set pace, and a receiver on its event loop would stamp arrivals when that loop gets to them —
// bunched by the load generator, not by the service. Its arrivals come back by wall-clock ms,
// turned into this process's performance.now().

/** `stalls`: with `watchStalls`, when the sink process's event loop did not run for more than STALL_MS ([from, to] in this process's performance.now()). */
export type TRemoteSink = {
  origin: string;
  timed: (prefix: string) => Promise<TTimedArrival[]>;
  stalls: () => Promise<[number, number][]>;
  close: () => Promise<void>;
};

/** A turn of the sink's event loop this much later than its 5 ms timer asked is a stall (BENCH_PEAK_TRACE: arrivals stamped late and together). */
const STALL_MS = 25;

export async function startSinkProcess({ watchStalls = false } = {}): Promise<TRemoteSink> {
  const args = ['--import', 'tsx', path.join(import.meta.dirname, 'sink-process.ts'), '--child', ...(watchStalls ? ['--stalls'] : [])];
  const child = spawn(process.execPath, args, {
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
    stalls: async () => {
      const rows = (await (await fetch(`${origin}/sink/__stalls`)).json()) as [number, number][];
      return rows.map(([from, to]) => [from - performance.timeOrigin, to - performance.timeOrigin]);
    },
    close,
  };
}

if (process.argv.includes('--child')) {
  const stalls: [number, number][] = [];
  if (process.argv.includes('--stalls')) {
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      if (now - last > STALL_MS) stalls.push([last + performance.timeOrigin, now + performance.timeOrigin]);
      last = now;
    }, 5);
  }
  const sink = await startSink({ stalls: () => stalls });
  process.stdout.write(`${sink.origin}\n`);
  process.once('SIGTERM', () => void sink.close().then(() => process.exit(0)));
}
