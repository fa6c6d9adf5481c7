import assert from 'node:assert/strict';
import { withAppDb } from '../helpers/app';
import type { TUpgradeStep } from '../helpers/upgrade-walk';

// Migration 0038 partitions console.receipts by range of id (issue 52): a store of the release before
// (migrations up to 0037) keeps every receipt, in the old table become the first partition (receipts_p0,
// MINVALUE to the first id of the partitions after it, its range proved by a validated CHECK), and every
// forward, whose foreign key now names the partitioned table; an arrival now takes an id of the partition
// the migration opened, which the spans table records, and the app's start made the next one ahead.
// The receipts counted are this step's receiver's only (other steps' receipts are in the walked database).

const R = '00000000-0000-4000-8000-00000000a038';
const SLUG = 'old-receipts-0037';

const rows = `
  insert into console.receivers (id, slug, name) values ('${R}', '${SLUG}', 'old receipts');
  insert into console.receipts (receiver_id, method, path, headers, body, body_size, verdict, response_status, message_id, received_at)
  select '${R}', 'POST', '/ingest/${SLUG}', '[]'::jsonb, convert_to('{"k":' || k || '}', 'UTF8'), 8, 'no secret configured', 200,
         'msg_old0037_' || k, now() - k * interval '7 hours'
    from generate_series(0, 59) k;
  insert into console.forwards (receipt_id, actor, url, mode, method, sent_headers, status, elapsed_ms)
  select id, 'old@example.org', 'http://127.0.0.1:9/', 'verbatim', 'POST', '[]'::jsonb, 0, 3
    from console.receipts where receiver_id = '${R}' and message_id in ('msg_old0037_1', 'msg_old0037_59');`;

type TLook = {
  kind: string;
  receipts: { id: string; part: string; messageId: string }[];
  forwards: { receiptId: string; messageId: string }[];
  parts: { name: string; bound: string }[];
  spans: { name: string; firstId: string; endId: string; opened: boolean; closed: boolean }[];
  check: { valid: boolean; def: string };
  fk: { target: string; def: string };
  refused: string | null;
};

export const steps: TUpgradeStep[] = [
  {
    name: 'migration 0038: the receipts of the release before are the first partition of console.receipts, their forwards kept; an arrival takes an id of the partition the migration opened',
    release: '0037_attempts_partitioned',
    rows,
    check: async (app) => {
      // An arrival now (the receiver holds no secret: stored and answered 200).
      const res = await fetch(`${app.baseUrl}/ingest/${SLUG}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"k":"new"}' });
      assert.equal(res.status, 200, await res.text());
      const fresh = res.headers.get('x-receipt-id');
      assert.ok(fresh, 'x-receipt-id');

      const look: TLook = await withAppDb(app, async (query) => {
        const [kind] = await query<{ kind: string }>(`select relkind::text as kind from pg_class where oid = 'console.receipts'::regclass`);
        const receipts = await query<TLook['receipts'][number]>(
          `select id::text, tableoid::regclass::text as part, message_id as "messageId" from console.receipts where receiver_id = $1 order by id`,
          [R],
        );
        const forwards = await query<TLook['forwards'][number]>(
          `select f.receipt_id::text as "receiptId", r.message_id as "messageId" from console.forwards f join console.receipts r on r.id = f.receipt_id
            where r.receiver_id = $1 order by r.message_id`,
          [R],
        );
        const parts = await query<TLook['parts'][number]>(
          `select c.relname as name, pg_get_expr(c.relpartbound, c.oid) as bound from pg_inherits i join pg_class c on c.oid = i.inhrelid
            where i.inhparent = 'console.receipts'::regclass`,
        );
        const spans = await query<TLook['spans'][number]>(
          `select name, first_id::text as "firstId", end_id::text as "endId", opened_at is not null as opened, closed_at is not null as closed
             from console.receipt_partitions order by first_id`,
        );
        const [check] = await query<TLook['check']>(
          `select convalidated as valid, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'console.receipts_p0'::regclass and conname = 'receipts_p0_range'`,
        );
        const [fk] = await query<TLook['fk']>(
          `select confrelid::regclass::text as target, pg_get_constraintdef(oid) as def from pg_constraint where conname = 'forwards_receipt_id_receipts_id_fk'`,
        );
        // A row at the first partition's end, written into it: refused (its range ends there).
        const refused = await query(
          `insert into console.receipts_p0 (id, receiver_id, method, path, headers, body_size, verdict, response_status)
             values ($2, $1, 'POST', '/', '[]', 0, 'valid', 200)`,
          [R, spans[0].endId],
        ).then(
          () => null,
          (err: Error) => err.message,
        );
        return { kind: kind.kind, receipts, forwards, parts, spans, check, fk, refused };
      });

      assert.equal(look.kind, 'p', 'console.receipts is a partitioned table');
      const old = look.receipts.filter((r) => r.id !== fresh);
      assert.deepEqual(
        old.map((r) => r.messageId).sort(),
        Array.from({ length: 60 }, (_, k) => `msg_old0037_${k}`).sort(),
        'every receipt of the old store kept',
      );
      assert.deepEqual(new Set(old.map((r) => r.part)), new Set(['console.receipts_p0']), 'in the first partition');
      assert.deepEqual(
        look.forwards.map((f) => f.messageId),
        ['msg_old0037_1', 'msg_old0037_59'],
        'every forward kept, with its receipt',
      );
      assert.equal(look.fk.target, 'console.receipts', 'forwards reference the partitioned table');
      assert.match(look.fk.def, /ON DELETE CASCADE/);

      // The spans: receipts_p0 from the beginning (never opened here), closed at the upgrade; the one opened then, still open;
      // the next made ahead by the app's start. Each starts where the one before ends; the bounds say the same.
      const [p0, open, ...ahead] = look.spans;
      assert.deepEqual([p0.name, p0.opened, p0.closed], ['receipts_p0', false, true]);
      assert.equal(open.firstId, p0.endId);
      assert.deepEqual([open.opened, open.closed], [true, false]);
      assert.ok(ahead.length >= 1 && ahead[0].firstId === open.endId && !ahead[0].opened, JSON.stringify(look.spans));
      for (const s of look.spans) {
        const bound = look.parts.find((p) => p.name === s.name)?.bound;
        const from = s.name === 'receipts_p0' ? 'MINVALUE' : `'${s.firstId}'`;
        assert.equal(bound, `FOR VALUES FROM (${from}) TO ('${s.endId}')`, s.name);
      }
      // The arrival took an id of the open partition (the sequence was moved to its first id).
      const made = look.receipts.find((r) => r.id === fresh);
      assert.equal(made?.part, `console.${open.name}`, 'the arrival is in the partition opened at the upgrade');
      assert.ok(BigInt(fresh!) >= BigInt(open.firstId) && BigInt(fresh!) < BigInt(open.endId));

      // Its CHECK states the same bound, validated: what let ATTACH skip reading the rows.
      assert.equal(look.check.valid, true);
      assert.equal(/(\d+)/.exec(look.check.def)?.[1], p0.endId, look.check.def);
      // (PGlite's PostgreSQL 17 tells it after the BEFORE trigger the partition took over: the row belongs elsewhere.)
      assert.match(String(look.refused), /violates (partition constraint|check constraint)|moving row to another partition/);
    },
  },
];
