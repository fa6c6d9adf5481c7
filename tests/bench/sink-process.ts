import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { onCleanup } from './cleanup';
import { startSink, type TTimedArrival } from './sink';

// The peak section's receivers in a process of their own: the bench process also sends grants at a
// set pace, and a receiver on its event loop would stamp arrivals when that loop gets to them —
// bunched by the load generator, not by the service. Its arrivals come back by wall-clock ms,
// turned into this process's performance.now(). It runs at a higher priority than the rest where
// the bench may give one (as root): an endpoint is a host of its own, and here the receivers share
// two cores with the app, its workers, the store and the load — at their normal priority they were
// not run for 100–270 ms at a time (BENCH_PEAK_TRACE: ~1,700–3,500 such stalls over 25 ms a run at
// a load of 15–24), and arrivals stamped after a stall came together though they were sent apart.

/** `stalls`: with `watchStalls`, when the sink process's event loop did not run for more than STALL_MS ([from, to] in this process's performance.now()). */
export type TRemoteSink = {
  origin: string;
  /** The receivers' process's scheduling priority (its nice: RECEIVER_PRIORITY as root, else 0). */
  priority: number;
  timed: (prefix: string) => Promise<TTimedArrival[]>;
  stalls: () => Promise<[number, number][]>;
  close: () => Promise<void>;
};

/** The receivers' priority (nice): above the app's, its workers', the store's and the load's (0). */
const RECEIVER_PRIORITY = -10;

/** A turn of the sink's event loop this much later than its 5 ms timer asked is a stall (BENCH_PEAK_TRACE: arrivals stamped late and together). */
const STALL_MS = 25;

export async function startSinkProcess({ watchStalls = false } = {}): Promise<TRemoteSink> {
  const args = ['--import', 'tsx', path.join(import.meta.dirname, 'sink-process.ts'), '--child', ...(watchStalls ? ['--stalls'] : [])];
  // Through nice(1), so that every thread of the process has the priority (a thread's own is set alone); not root, it
  // runs as everything else does, and the table says so.
  const nice = process.getuid?.() === 0 ? ['nice', '-n', String(RECEIVER_PRIORITY)] : [];
  const [command, ...rest] = [...nice, process.execPath, ...args];
  const child = spawn(command, rest, {
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
    priority: os.getPriority(child.pid!),
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
