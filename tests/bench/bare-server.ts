// The ingest baselines, run as their own process (as the app is) by baselines.ts: a bare node:http
// server that stores each request as a console.receipts row — the same columns the app stores —
// before answering 200, into a fresh store migrated with the app's migrations. BARE_MODE=one: one
// INSERT per request. BARE_MODE=group: group commit — requests arriving while a write is running
// share the next multi-row INSERT, and each is answered after that INSERT commits. BARE_MODE=group-search:
// group commit that also writes what payload search reads (body_json, from which the table's trigger
// makes body_words; the arrival host), as the app does (lib/db/search-json.ts decides what body_json holds): the floor for a receiver whose receipts are searchable.
// BARE_MODE=one-search: one INSERT per request, with those columns (the floor on PGlite, issue 42).
// Env: BARE_STORE=pglite|postgres, BARE_TARGET=<data dir>|<database URL>, BARE_MODE, BARE_MAX_BATCH, BARE_SECRET.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { searchableJson } from '../../lib/db/search-json';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../lib/db/migrations');
const SEARCH = process.env.BARE_MODE?.endsWith('-search') ?? false;
const COLUMNS = [
  'receiver_id',
  'method',
  'path',
  'query',
  'headers',
  'body',
  'body_utf8',
  'body_size',
  'oversize',
  'source_ip',
  'message_id',
  'verdict',
  'verdict_reason',
  'response_status',
  ...(SEARCH ? ['host', 'body_json'] : []),
];
const CASTS: Record<string, string> = { headers: '::jsonb', body_json: '::jsonb' };

type TQuery = (text: string, params: unknown[]) => Promise<{ rows: { id: number | string }[] }>;
type TStore = { query: TQuery; close: () => Promise<void> };

async function openStore(kind: string, target: string): Promise<TStore> {
  if (kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const client = new PGlite(path.join(target, 'pg'));
    await client.waitReady;
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS });
    return { query: (text, params) => client.query(text, params), close: () => client.close() };
  }
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  const pool = new pg.Pool({ connectionString: target, max: 10 }); // the app's pool size
  await migrate(drizzle({ client: pool }), { migrationsFolder: MIGRATIONS });
  return { query: (text, params) => pool.query(text, params), close: () => pool.end() };
}

const placeholders = (rows: number) =>
  Array.from({ length: rows }, (_, r) => `(${COLUMNS.map((c, i) => `$${r * COLUMNS.length + i + 1}${CASTS[c] ?? ''}`).join(', ')})`).join(', ');
const insertSql = (rows: number) => `insert into console.receipts (${COLUMNS.join(', ')}) values ${placeholders(rows)} returning id`;

const utf8 = new TextDecoder('utf-8', { fatal: true });
function isText(body: Buffer): boolean {
  if (body.includes(0)) return false;
  try {
    utf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

function verdict(body: Buffer, headers: http.IncomingHttpHeaders, secret: string): [string, string] {
  try {
    new Webhook(secret).verify(body.toString('utf8'), {
      'webhook-id': String(headers['webhook-id'] ?? ''),
      'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''),
      'webhook-signature': String(headers['webhook-signature'] ?? ''),
    });
    return ['valid', 'Verified with the webhook-* headers and secret 1.'];
  } catch (err) {
    return ['invalid signature', String(err)];
  }
}

type TWaiting = { params: unknown[]; done: (err: unknown, id?: number | string) => void };

/** Group commit: one write at a time; whatever queued meanwhile is the next write. */
function groupWriter(store: TStore, maxBatch: number) {
  const queue: TWaiting[] = [];
  let running: Promise<void> | null = null;
  const drain = async () => {
    while (queue.length) {
      const batch = queue.splice(0, maxBatch);
      try {
        const { rows } = await store.query(
          insertSql(batch.length),
          batch.flatMap((w) => w.params),
        );
        batch.forEach((w, i) => w.done(null, rows[i]?.id));
      } catch (err) {
        batch.forEach((w) => w.done(err));
      }
    }
    running = null;
  };
  return {
    write: (params: unknown[]) =>
      new Promise<number | string | undefined>((resolve, reject) => {
        queue.push({ params, done: (err, id) => (err ? reject(err) : resolve(id)) });
        running ??= drain();
      }),
    idle: () => running ?? Promise.resolve(),
  };
}

async function main() {
  const { BARE_STORE = 'pglite', BARE_TARGET = '', BARE_MODE = 'one', BARE_SECRET = '' } = process.env;
  const store = await openStore(BARE_STORE, BARE_TARGET);
  const { rows } = await store.query(`insert into console.receivers (slug, name, secrets) values ('bare-${BARE_MODE}', 'bare ${BARE_MODE}', $1) returning id`, [
    [BARE_SECRET],
  ]);
  const receiverId = rows[0].id;
  const group = groupWriter(store, Number(process.env.BARE_MAX_BATCH || 500));
  const writeOne = async (params: unknown[]) => (await store.query(insertSql(1), params)).rows[0]?.id;
  const write = BARE_MODE.startsWith('one') ? writeOne : group.write;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://bare');
      const pairs: [string, string][] = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) pairs.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
      const [v, reason] = verdict(body, req.headers, BARE_SECRET);
      const messageId = req.headers['webhook-id'] ?? req.headers['svix-id'] ?? null;
      const params = [
        receiverId,
        req.method,
        url.pathname,
        url.search.slice(1),
        JSON.stringify(pairs),
        body,
        isText(body),
        body.length,
        false,
        req.socket.remoteAddress ?? '',
        messageId,
        v,
        reason,
        200,
      ];
      if (SEARCH) params.push(req.headers.host ?? '', searchableJson(isText(body) ? body.toString('utf8') : null));
      write(params).then(
        (id) => res.writeHead(200, { 'x-receipt-id': String(id), 'cache-control': 'no-store' }).end(),
        (err) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => console.log(`READY ${(server.address() as AddressInfo).port} ${receiverId}`));

  const stop = async () => {
    await new Promise<void>((r) => server.close(() => r()));
    await group.idle();
    await store.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
