import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import type { TApp } from '../helpers/app';
import { staffCookie, token } from '../helpers/http';
import { median, percentile } from './stats';

// Timed reads of the views staff and integrators open: warm-ups first, then the views interleaved
// run by run over one keep-alive connection; the median and p90 of each.

export type TRead = { name: string; path: string; auth: 'token' | 'cookie' };
const WARMUP = 5;

export async function timeReads(app: TApp, reads: TRead[], runs: number): Promise<{ medians: number[]; p90s: number[] }> {
  const headers = { token: { authorization: `Bearer ${await token(app)}` }, cookie: { cookie: await staffCookie(app) } };
  const pool = new Pool(app.baseUrl, { connections: 1 });
  const samples: number[][] = reads.map(() => []);
  try {
    for (let run = 0; run < WARMUP + runs; run++) {
      for (const [v, read] of reads.entries()) {
        const start = performance.now();
        const res = await pool.request({ method: 'GET', path: read.path, headers: headers[read.auth] });
        const text = await res.body.text();
        const ms = performance.now() - start;
        if (res.statusCode !== 200) throw new Error(`${read.name}: ${res.statusCode} ${text.slice(0, 300)}`);
        if (run >= WARMUP) samples[v].push(ms);
      }
    }
  } finally {
    await pool.close();
  }
  return { medians: samples.map(median), p90s: samples.map((s) => percentile(s, 90)) };
}
