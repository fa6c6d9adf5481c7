import pg from 'pg';
import type { TApp } from '../helpers/app';
import { call, staffCookie, token } from '../helpers/http';
import { PARTITIONS_SQL, PASSES_SQL, SIZE_SQL } from './seed-year';
import { withSql, type TSql } from './stores';

// How the year section lets a day pass, with the app's own retention doing the work. The app's clock cannot be moved, so
// the seeded days lie in the past and a simulated day k is "now" for a retention of (days − k + retention) days: the app
// restarts with that MESSAGE_RETENTION, and its pass drops the partition of day k − retention, as it would at real day k.
//
// The drop should fall in a measured window, not at whatever moment the app's first pass runs after its start, so the
// retention is held while the app starts, in the rows an admin's changes write (written at rest, holdSql): the seeded
// account keeps its own 365 days (EXT /v1/retention; drop-attempts.ts keeps a partition such an account's rows are in),
// the console's receipts 365 days (/api/retention). Releasing both (the account back to the deployment's value, the
// console's set to the day's) starts both halves' passes at once (wakePurgeLoop): the partition step, then the row-by-row
// steps of what is not partitioned yet. Embedded: through the API. PostgreSQL: the same rows and the NOTIFY a web's PATCH
// sends, from the bench, to the `npm run worker` that runs the passes (release()). SQL reaches the store while the app runs on PostgreSQL; an embedded store is read with it stopped.

type TCredentials = { token: string; cookie: string };
export type TPart = { name: string; parent: string; toMs: number | null; bytes: number };
export type TSize = Record<'database' | 'messages' | 'deliveries' | 'attempts' | 'receipts', number>;
type TPass = { half: string; what: string; startedMs: number | null; endedMs: number | null; lastMs: number | null; purged: number };

/** A simulated day after its pass: what was dropped and when, the passes' times and the store's size after. */
export type TDay = {
  day: number;
  retentionDays: number;
  released: number;
  dropped: string[];
  /** From the service pass's start to its last partition step's drop, ms (null: nothing dropped). */
  dropMs: number | null;
  dropWindow: [number, number] | null;
  servicePassMs: number | null;
  consolePassMs: number | null;
  size: TSize;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));

/**
 * SQL that holds the retention, written at rest (a write through the API would start a pass): the rows the API writes,
 * the account's own 365 days and the console's.
 */
export const holdSql = (accountId: string) => `
  insert into service.account_retention (account_id, message_payload_retention_ms, message_retention_ms) values ('${accountId}', ${365 * 86_400_000}, ${365 * 86_400_000})
    on conflict (account_id) do update set message_payload_retention_ms = excluded.message_payload_retention_ms, message_retention_ms = excluded.message_retention_ms;
  insert into console.settings (key, value) values ('retention.RECEIPT_BODY_RETENTION', '365d'), ('retention.RECEIPT_RETENTION', '365d')
    on conflict (key) do update set value = excluded.value;`;

/** What release() writes on PostgreSQL, in one transaction: its NOTIFYs go at its commit. */
const releaseSql = (accountId: string, days: number) => `
  begin;
  update service.account_retention set message_payload_retention_ms = null, message_retention_ms = null, updated_at = now() where account_id = '${accountId}';
  insert into console.settings (key, value) values ('retention.RECEIPT_BODY_RETENTION', '${days}d'), ('retention.RECEIPT_RETENTION', '${days}d')
    on conflict (key) do update set value = excluded.value;
  select pg_notify('gc_purge_wake', 'retention-service bench'), pg_notify('gc_purge_wake', 'retention-console bench');
  commit;`;

export function yearStore(app: TApp) {
  const postgres = Boolean(app.env.DATABASE_URL);
  // PostgreSQL: the passes' progress is read on one connection, opened by ready() (before the idle round) and kept. Opened
  // for each read (every 100-200 ms, in the drop's window alone), each forked a backend and ran its password handshake
  // beside the pass: CPU the idle rounds did not have.
  let watcher: pg.Client | null = null;
  const watch = async () => {
    if (!watcher) {
      watcher = new pg.Client({ connectionString: app.env.DATABASE_URL });
      await watcher.connect();
    }
    return watcher;
  };
  const passRows = async () => (await (await watch()).query(PASSES_SQL)).rows as Record<string, unknown>[];
  /** SQL on the store; the embedded store's app is left stopped (restart it with the next day's settings). */
  const atRest = async <T>(fn: (sql: TSql) => Promise<T>): Promise<T> => {
    if (postgres) return withSql('postgres', app.env.DATABASE_URL, fn);
    await app.stop();
    return withSql('pglite', app.env.DATA_DIR, fn);
  };
  /**
   * A token and a staff session for the release, and both retention routes read once: signing in (a password's hash) and a
   * route's first request in a process (its code loaded) hold the app's thread up to ~180 ms, which is the bench's doing, not
   * the pass's. Done before the ingest's idle round, they are not in the drop's window.
   */
  const ready = async (): Promise<TCredentials> => {
    const creds = { token: await token(app), cookie: await staffCookie(app) };
    if (postgres) await watch();
    for (const r of [
      await call(app, 'GET', '/v1/retention', { token: creds.token }),
      await call(app, 'GET', '/api/retention', { headers: { cookie: creds.cookie } }),
    ])
      if (r.status !== 200) throw new Error(`reading the retention: ${r.status} ${r.text}`);
    return creds;
  };
  /** Back to the deployment's values (the account) and the day's (the console's): both halves' passes start now. */
  // `marks`: when each request was sent and answered (ms since the epoch), for the trace. PostgreSQL: the same rows as the
  // two PATCHes write, written here, and the NOTIFY with which a web instance's PATCH wakes the passes in the `npm run
  // worker` that runs them (lib/db/purge-loop.ts): the app that takes the ingest serves no request of the bench's own in the
  // window (each PATCH held its thread ~60 ms, beside the ingest, at the pass's start), as in production, where the pass
  // starts at its interval.
  const release = async (days: number, accountId: string, { token: tok, cookie }: TCredentials, marks: Record<string, number> = {}) => {
    if (postgres) {
      marks['released in SQL'] = Date.now();
      await (await watch()).query(releaseSql(accountId, days));
      return;
    }
    marks['service PATCH sent'] = Date.now();
    const s = await call(app, 'PATCH', '/v1/retention', { token: tok, body: { messagePayloadRetention: null, messageRetention: null } });
    marks['answered'] = Date.now();
    if (s.status !== 200) throw new Error(`PATCH /v1/retention: ${s.status} ${s.text}`);
    const c = await call(app, 'PATCH', '/api/retention', { headers: { cookie }, body: { RECEIPT_RETENTION: `${days}d`, RECEIPT_BODY_RETENTION: `${days}d` } });
    marks['console PATCH answered'] = Date.now();
    if (c.status !== 200) throw new Error(`PATCH /api/retention: ${c.status} ${c.text}`);
  };
  return {
    postgres,
    atRest,
    ready,
    release,
    passRows,
    /** The connection passRows reads on, closed (before the database is dropped). */
    async close(): Promise<void> {
      await watcher?.end();
      watcher = null;
    },
    /**
     * Until both halves' passes started at `since` or later have ended. The service's is read from its table on
     * PostgreSQL; the embedded store's app holds its table, so there the attempts' oldest partition (EXT GET /v1/retention)
     * must start at `dueUntil` or later (the due ones dropped; null: nothing due), and settle() checks the pass's end at rest.
     * `creds`: ready()'s, so that no sign-in (a password's hash) falls in the drop's window.
     */
    async waitPasses(since: number, dueUntil: number | null, creds?: TCredentials): Promise<void> {
      const cookie = creds?.cookie ?? (await staffCookie(app));
      const tok = creds?.token ?? (await token(app));
      const ended = (started: number | null, done: number | null) => started !== null && started >= since && done !== null && done >= started;
      const at = (iso: string | null) => (iso ? Date.parse(iso) : null);
      // PostgreSQL: both halves' passes from their tables. Embedded: the console's from GET /api/retention (which also counts
      // what is due, on the app's one thread: asked every 2 s, not more).
      for (let n = 1, deadline = Date.now() + 900_000; Date.now() < deadline; n++, await sleep(postgres ? 200 : 2000)) {
        if (postgres) {
          const passes = await passRows();
          const [s, c] = ['service', 'console'].map((half) => passes.find((p) => p.half === half && p.what === 'pass'));
          if (n % 150 === 0) console.log(`    waiting for the passes since ${new Date(since).toISOString()}: ${JSON.stringify([s, c])}`);
          // After a restart a half's first pass is skipped while the stopped process's lease runs out (it then waits for its
          // idle interval, or a release): nothing of it to wait for.
          const settled = (p: (typeof passes)[number] | undefined) =>
            (p && ended(num(p.startedMs), num(p.endedMs))) || (dueUntil === null && Date.now() - since > 8000 && !((num(p?.startedMs) ?? 0) >= since));
          if (settled(s) && settled(c)) return;
          continue;
        }
        const c = await call(app, 'GET', '/api/retention', { headers: { cookie } });
        if (!ended(at(c.body.pass.startedAt), at(c.body.pass.endedAt))) continue;
        if (dueUntil === null) return;
        const r = await call(app, 'GET', '/v1/retention', { token: tok });
        const attempts = (r.body.partitions as { table: string; oldestFrom: string | null }[]).find((p) => p.table === 'service.attempts');
        if (attempts?.oldestFrom && Date.parse(attempts.oldestFrom) >= dueUntil) return;
      }
      throw new Error('the retention passes did not end in 15 minutes');
    },
  };
}

/** The partitions now (SQL), those of service.attempts past `cutoffMs`. */
export async function partitionsOf(sql: TSql): Promise<TPart[]> {
  return (await sql(PARTITIONS_SQL)).map((p) => ({ name: String(p.name), parent: String(p.parent), toMs: num(p.toMs), bytes: Number(p.bytes) }));
}

/**
 * The day's outcome, read at rest: null while the service's pass started after `released` has not ended (the embedded
 * store's app was stopped before it did). On PostgreSQL a plain VACUUM first, as autovacuum would in time: the size is
 * what the store keeps, free space reused, not when a worker last came by.
 */
export async function readDay(sql: TSql, d: Pick<TDay, 'day' | 'retentionDays' | 'released'>, before: TPart[], postgres: boolean): Promise<TDay | null> {
  const passes = (await sql(PASSES_SQL)).map(
    (p) => ({ ...p, startedMs: num(p.startedMs), endedMs: num(p.endedMs), lastMs: num(p.lastMs), purged: Number(p.purged) }) as TPass,
  );
  const pass = (half: string) => passes.find((p) => p.half === half && p.what === 'pass');
  const s = pass('service');
  const c = pass('console');
  if (!s?.startedMs || s.startedMs < d.released || !s.endedMs || s.endedMs < s.startedMs) return null;
  if (postgres) await sql('vacuum');
  const after = new Set((await partitionsOf(sql)).map((p) => p.name));
  const dropped = before.filter((p) => !after.has(p.name)).map((p) => p.name);
  // Each half's partition steps that dropped in its pass, from that pass's start: the longest.
  const toDrop = [s, c].flatMap((h) =>
    h?.startedMs
      ? passes.filter((p) => p.half === h.half && p.what !== 'pass' && p.lastMs !== null && p.lastMs >= h.startedMs!).map((p) => [h.startedMs!, p.lastMs!])
      : [],
  );
  const longest = dropped.length && toDrop.length ? toDrop.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a)) : null;
  const [size] = await sql(SIZE_SQL);
  return {
    ...d,
    dropped,
    dropMs: longest && longest[1] - longest[0],
    dropWindow: longest && [longest[0], longest[1]],
    servicePassMs: s.endedMs - s.startedMs,
    consolePassMs: c?.startedMs && c.endedMs && c.startedMs >= d.released ? c.endedMs - c.startedMs : null,
    size: Object.fromEntries(Object.entries(size).map(([k, v]) => [k, Number(v)])) as TSize,
  };
}
