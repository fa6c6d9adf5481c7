import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as pglite from '@electric-sql/pglite';
import { preparedQueries } from '../../lib/db/pglite-prepared';

// The embedded store's prepared statements (lib/db/pglite-prepared.ts), on a real PGlite in memory:
// the same rows as PGlite's own query(), errors that leave the session usable, PGlite's locks kept,
// and the NOTIFY a statement sends still heard (the worker's wake-up rides on the grant's insert).

let client: pglite.PGlite;
let query: ReturnType<typeof preparedQueries>;

before(async () => {
  client = new pglite.PGlite();
  await client.exec(`create table t (id uuid primary key, n int not null, tags text[], doc jsonb, at timestamptz, ok boolean, note text)`);
  query = preparedQueries(client, pglite);
});
after(() => client.close());

const INSERT = `insert into t (id, n, tags, doc, at, ok, note) values ($1::uuid, $2::int, $3::text[], $4::jsonb, $5::timestamptz, $6::boolean, $7::text)
  returning id, n, tags, doc, at, ok, note, n * 2 as twice`;

test('a named statement answers as query() does, the first time (prepared) and after (by name)', async () => {
  const rows = [
    ['00000000-0000-4000-8000-000000000001', 1, ['a', 'b c', 'd"e'], JSON.stringify({ k: [1, 'x'] }), '2026-11-27T10:00:00.123Z', true, null],
    ['00000000-0000-4000-8000-000000000002', 2, [], 'null', '2026-11-27T10:00:01Z', false, 'naïve ✓'],
    ['00000000-0000-4000-8000-000000000003', 3, null, null, null, null, ''],
  ];
  for (const params of rows) {
    const named = await query(INSERT, params, 'insert_t');
    const [plain] = (await client.query(`select id, n, tags, doc, at, ok, note, n * 2 as twice from t where id = $1`, [params[0]])).rows;
    assert.deepEqual(named, [plain]);
  }
  const [first] = await query(INSERT.replace('returning', 'on conflict (id) do nothing returning'), rows[0], 'insert_t_again');
  assert.equal(first, undefined, 'nothing returned, no row');
  const all = await query<{ id: string; twice: number }>(`select id, n * 2 as twice from t where n >= $1 order by n`, [2], 'twice');
  assert.deepEqual(
    all.map((r) => [r.id.slice(-1), r.twice]),
    [
      ['2', 4],
      ['3', 6],
    ],
  );
});

test('an error rejects with the database error and leaves the session usable; a statement that does not parse is not kept', async () => {
  const params = ['00000000-0000-4000-8000-0000000000aa', 10, null, null, null, null, null];
  await query(INSERT, params, 'insert_t');
  await assert.rejects(query(INSERT, params, 'insert_t'), (err: { code?: string }) => err.code === '23505');
  assert.equal((await query<{ n: number }>(`select n from t where id = $1::uuid`, [params[0]], 'n_of'))[0].n, 10);
  await assert.rejects(query('selec 1', [], 'broken'), /syntax error/);
  assert.deepEqual(await query('select 1 as one', [], 'broken'), [{ one: 1 }], 'the name is prepared again from the text given now');
});

test('it waits for a transaction in progress, as query() does, and its NOTIFY reaches listeners', async () => {
  const heard: string[] = [];
  const unlisten = await client.listen('prepared_test', (payload) => heard.push(payload));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // Rolled back: a statement run between its statements (the one session) would see its row.
  const tx = client.transaction(async (t) => {
    await t.query(`insert into t (id, n) values ('00000000-0000-4000-8000-0000000000bb', 20)`);
    await held;
    throw new Error('rolled back');
  });
  await new Promise((r) => setTimeout(r, 20));
  const read = query<{ n: number }>(`select n from t where id = $1::uuid`, ['00000000-0000-4000-8000-0000000000bb'], 'n_of');
  release();
  await assert.rejects(tx, /rolled back/);
  assert.deepEqual(await read, [], 'ran after the transaction ended, not between its statements');
  await query(`select pg_notify('prepared_test', $1::text)`, ['woken'], 'notify');
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(heard, ['woken']);
  await unlisten();
});
