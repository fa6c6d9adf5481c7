import fs from 'node:fs';
import pg from 'pg';

// CPU spent by the app's processes, from /proc (issue 42: the CPU of one grant with its deliveries,
// summed over every process — web, worker, store). A meter is started before the work and read
// after it: the app's process and its descendants, and on PostgreSQL the server backends connected
// to the app's database (found in pg_stat_activity while the work runs, so a connection opened
// midway counts too; one that closes midway keeps the last reading taken of it). PostgreSQL's shared
// background processes (WAL writer, checkpointer) serve every database of the server and are left out.

const TICKS_PER_SECOND = 100; // USER_HZ, `getconf CLK_TCK` on Linux

/** utime + stime of a process in ms (its own threads; children it waited for are not added), or null once it is gone. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of proc(5); after the ")" the third field (state) is at index 0.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** `root` and every process below it (by parent pid). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]) ?? []));
  return out;
}

export type TCpuReading = { appMs: number; storeMs: number; totalMs: number; storeProcesses: number };

/**
 * Starts measuring the CPU of the process `appPid` (and its descendants) and, given the app's
 * `databaseUrl`, of the PostgreSQL backends serving that database. `stop()` returns what they spent since.
 */
export async function cpuMeter(appPid: number, databaseUrl?: string): Promise<{ stop: () => Promise<TCpuReading> }> {
  const first = new Map<string, number>();
  const last = new Map<string, number>();
  let started = false;
  const read = (key: string, pid: number) => {
    const ms = processCpuMs(pid);
    if (ms === null) return;
    // A process that appears while measuring (a new pool connection's backend) counts from its start.
    if (!first.has(key)) first.set(key, started ? 0 : ms);
    last.set(key, ms);
  };
  const readApp = () => {
    for (const pid of descendants(appPid)) read(`app:${pid}`, pid);
  };

  let client: pg.Client | null = null;
  let dbName = '';
  if (databaseUrl) {
    dbName = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
    client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
  }
  const ownPid = client ? Number((await client.query('select pg_backend_pid() as pid')).rows[0].pid) : 0;
  const readStore = async () => {
    if (!client) return;
    const { rows } = await client.query('select pid from pg_stat_activity where datname = $1 and pid <> $2', [dbName, ownPid]);
    for (const r of rows) read(`store:${r.pid}`, Number(r.pid));
  };

  readApp();
  await readStore();
  started = true;
  let stopped = false;
  // Backends come and go with the pool: look for new ones, and read the known ones, every 100 ms.
  const poll = (async () => {
    while (!stopped) {
      await new Promise((r) => setTimeout(r, 100));
      readApp();
      await readStore();
    }
  })();

  return {
    stop: async () => {
      stopped = true;
      await poll;
      readApp();
      await readStore();
      await client?.end();
      let appMs = 0;
      let storeMs = 0;
      let storeProcesses = 0;
      for (const [key, end] of last) {
        const spent = end - (first.get(key) ?? end);
        if (key.startsWith('store:')) {
          storeMs += spent;
          storeProcesses++;
        } else appMs += spent;
      }
      return { appMs, storeMs, totalMs: appMs + storeMs, storeProcesses };
    },
  };
}
