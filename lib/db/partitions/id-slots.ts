import { dbKind, getDb } from '../client';
import { driverRows, queryRows, sql } from '../query';
import { underLease, type TLease } from '../take-lease';
import { intervalStart, type TPartitionInterval } from './interval';
import { ddl, oneAtATime } from './manage-partitions';

// A table partitioned by range of its id (console.receipts, migration 0038), each partition the rows of
// one interval of arrival. Ids come from one sequence in arrival order; each partition is a slot of
// SLOT ids, made ahead, and at the first upkeep of each interval the sequence is moved to the next
// slot's first id (`rotate`). A spans table records when each slot took its first id (opened_at) and
// when the next was opened (closed_at): a row's arrival time is its transaction's start, before its
// id was drawn, so every row of a closed slot arrived before its closed_at. Reads by id plan one
// partition; a window read adds `id >= firstIdSince(from)` and plans the partitions of its window.
//
// A slot never fills in practice (10^10 ids in a day): if it did, ids would run on into the slot made
// ahead, and the next rotation starts from the slot the sequence is in. A process stopped over a
// boundary leaves the open slot taking the next interval's rows too (a longer slot, dropped later).
// setval is not transactional: if a rotation's commit is lost after it, the next upkeep finds the
// sequence in a slot never opened, records it opened and the one before closed.

export const SLOT = 10_000_000_000;

export type TIdPartitioned = { table: string; spans: string; sequence: string; interval: TPartitionInterval; lease: TLease };

export type TIdSpan = { name: string; firstId: number; endId: number; openedAt: Date | null; closedAt: Date | null };

const LEASE_MS = 10 * 60_000;

type TSpanRow = { name: string; firstId: string | number; endId: string | number; openedAt: Date | string | null; closedAt: Date | string | null };
const toSpan = (r: TSpanRow): TIdSpan => ({
  name: r.name,
  firstId: Number(r.firstId),
  endId: Number(r.endId),
  openedAt: r.openedAt ? new Date(r.openedAt) : null,
  closedAt: r.closedAt ? new Date(r.closedAt) : null,
});

/** The table's slots as the spans table has them, oldest first (only those still partitions of it). */
export async function listIdSpans(p: Pick<TIdPartitioned, 'table' | 'spans'>): Promise<TIdSpan[]> {
  const rows = await driverRows<TSpanRow>(
    `select s.name, s.first_id as "firstId", s.end_id as "endId", s.opened_at as "openedAt", s.closed_at as "closedAt"
       from ${p.spans} s
      where exists (select 1 from pg_inherits i join pg_class c on c.oid = i.inhrelid
                     where i.inhparent = $1::regclass and c.relname = s.name and not i.inhdetachpending)
      order by s.first_id`,
    [p.table],
  );
  return rows.map(toSpan);
}

/** The next id the sequence hands out. */
async function nextId(sequence: string): Promise<number> {
  const [s] = await driverRows<{ last: string | number; called: boolean }>(`select last_value as last, is_called as called from ${sequence}`, []);
  return Number(s.last) + (s.called ? 1 : 0);
}

/** Makes the slot [from, from + SLOT) and records it. */
async function makeSlot(p: TIdPartitioned, from: number): Promise<string> {
  const [schema, parent] = p.table.split('.');
  const name = `${parent}_p${from / SLOT}`;
  await ddl([
    `create table ${schema}.${name} (like ${p.table} including defaults including constraints including storage)`,
    `alter table ${p.table} attach partition ${schema}.${name} for values from (${from}) to (${from + SLOT})`,
    `insert into ${p.spans} (name, first_id, end_id) values ('${name}', ${from}, ${from + SLOT})`,
  ]);
  return `${schema}.${name}`;
}

/**
 * The table's upkeep: the slot the sequence is in recorded open (and the one before closed); at the first run of a new
 * interval the sequence moved to the next slot; a slot made ahead of the open one. The names made; null when another
 * process holds the lease.
 */
export function ensureIdPartitions(p: TIdPartitioned, now = new Date()): Promise<string[] | null> {
  return oneAtATime(p.table, () =>
    underLease(p.lease, LEASE_MS, async () => {
      const made: string[] = [];
      let spans = await listIdSpans(p);
      const aheadOf = async (open: TIdSpan) => {
        let next = spans.find((s) => s.firstId >= open.endId);
        if (!next) {
          made.push(await makeSlot(p, open.endId));
          spans = await listIdSpans(p);
          next = spans.find((s) => s.firstId >= open.endId)!;
        }
        return next;
      };
      const at = await nextId(p.sequence);
      let open = spans.find((s) => s.firstId <= at && at < s.endId);
      if (!open) throw new Error(`${p.table}: no partition holds the sequence's next id ${at}`);
      if (!open.openedAt) {
        // A rotation whose record was lost, or ids run on from a full slot: opened now, the ones before closed.
        await driverRows(`update ${p.spans} set closed_at = coalesce(closed_at, now()) where first_id < $1`, [open.firstId]);
        await driverRows(`update ${p.spans} set opened_at = now() where name = $1`, [open.name]);
        spans = await listIdSpans(p);
        open = spans.find((s) => s.name === open!.name)!;
      }
      const next = await aheadOf(open);
      if (open.openedAt! < intervalStart(now, p.interval)) {
        // The sequence first (ids drawn after it go to the next slot), then the times, read after it.
        const db = await getDb();
        await db.transaction(async (tx) => {
          await queryRows(tx, sql.raw(`select setval('${p.sequence}', ${next.firstId}, false)`));
          await queryRows(tx, sql.raw(`update ${p.spans} set closed_at = clock_timestamp() where name = '${open!.name}'`));
          await queryRows(tx, sql.raw(`update ${p.spans} set opened_at = clock_timestamp() where name = '${next.name}'`));
        });
        spans = await listIdSpans(p);
        await aheadOf(spans.find((s) => s.name === next.name)!);
      }
      return made;
    }),
  );
}

/**
 * The first id a read of the rows that arrived at or after `from` needs: the first id of the oldest slot not closed before
 * `from` (0 when none is: the oldest slot then).
 */
export function firstIdSince(spans: TIdSpan[], from: Date): number {
  const first = spans.find((s) => s.closedAt === null || s.closedAt >= from);
  return first && first !== spans[0] ? first.firstId : 0;
}

export type TIdDropOptions = {
  /** Called before a slot past the cutoff is detached (the archive step): false keeps it for now. */
  prepare?: (span: TIdSpan) => Promise<boolean>;
  /** Stops starting more drops after this long; the rest are the next call's. */
  budgetMs?: number;
};

/**
 * Detaches and drops the slots closed at or before `cutoff` (every row of one arrived before it), oldest first, as
 * dropPartitionsBefore does for tables partitioned by time: DETACH CONCURRENTLY on PostgreSQL, DETACH and DROP in one
 * transaction on PGlite; one a killed process left detaching is finalized, one it left detached is dropped. The slots
 * dropped (their spans gone with them); null when another process holds the lease.
 */
export function dropIdPartitionsBefore(p: TIdPartitioned, cutoff: Date, options: TIdDropOptions = {}): Promise<TIdSpan[] | null> {
  return oneAtATime(p.table, () =>
    underLease(p.lease, LEASE_MS, async () => {
      const postgres = (await dbKind()) === 'postgres';
      const [schema] = p.table.split('.');
      const all = (
        await driverRows<TSpanRow>(
          `select name, first_id as "firstId", end_id as "endId", opened_at as "openedAt", closed_at as "closedAt" from ${p.spans} order by first_id`,
          [],
        )
      ).map(toSpan);
      const state = await driverRows<{ name: string; attached: boolean; pending: boolean }>(
        `select c.relname as name, i.inhrelid is not null as attached, coalesce(i.inhdetachpending, false) as pending
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
           left join pg_inherits i on i.inhrelid = c.oid and i.inhparent = $1::regclass
          where n.nspname = $2 and c.relname = any($3::text[]) and c.relkind = 'r'`,
        [p.table, schema, all.map((s) => s.name)],
      );
      const of = new Map(state.map((s) => [s.name, s]));
      const dropped: TIdSpan[] = [];
      const until = Date.now() + (options.budgetMs ?? Infinity);
      // One a killed pass began first (detached, or detaching): outside the budget, as it was prepared then.
      const begun = (s: TIdSpan) => !of.get(s.name)?.attached || !!of.get(s.name)?.pending;
      for (const span of [...all.filter(begun), ...all.filter((s) => !begun(s))]) {
        const st = of.get(span.name);
        const name = `${schema}.${span.name}`;
        if (!st) {
          await driverRows(`delete from ${p.spans} where name = $1`, [span.name]); // dropped, its span left behind
          continue;
        }
        if (!begun(span) && (!span.closedAt || span.closedAt > cutoff)) continue;
        if (!begun(span) && Date.now() > until) break;
        if (!begun(span) && options.prepare && !(await options.prepare(span))) continue;
        if (st.attached && postgres) {
          // CONCURRENTLY cannot run inside a transaction: a statement of its own on the pool.
          await driverRows(`alter table ${p.table} detach partition ${name} ${st.pending ? 'finalize' : 'concurrently'}`, []);
          await ddl([`drop table ${name}`, `delete from ${p.spans} where name = '${span.name}'`]);
        } else if (st.attached) {
          await ddl([`alter table ${p.table} detach partition ${name}`, `drop table ${name}`, `delete from ${p.spans} where name = '${span.name}'`]);
        } else {
          await ddl([`drop table ${name}`, `delete from ${p.spans} where name = '${span.name}'`]);
        }
        dropped.push(span);
      }
      return dropped;
    }),
  );
}
