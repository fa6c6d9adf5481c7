// What both halves' tables are made of: the two pg schemas, timestamp columns, custom types, and
// the indexes of payload search. Each half's tables are in its own file (service.ts, console.ts).
import { sql, type SQL } from 'drizzle-orm';
import { type AnyPgColumn, customType, index, pgSchema, timestamp } from 'drizzle-orm/pg-core';

// One database, two schemas. `service` belongs to the Giving Connect API (lib/service);
// `console` to the receiver and dashboard (lib/console). Neither half reads or writes the other's
// schema (each has its own leases too), and eslint.config.mjs keeps each half to its own tables.
export const service = pgSchema('service');
export const consoleSchema = pgSchema('console');

export const ts = (name?: string) =>
  name ? timestamp(name, { withTimezone: true, mode: 'date', precision: 3 }) : timestamp({ withTimezone: true, mode: 'date', precision: 3 });
export const createdAt = () => ts().notNull().defaultNow();
export const updatedAt = () => ts().notNull().defaultNow();

export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});
// A transaction id (PostgreSQL's xid8, read as decimal text): the order in which rows became final.
export const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => 'xid8',
});
// Words with their positions, as to_tsvector makes them. Never written by the app: a trigger of
// migration 0020 derives the payload-search columns from the jsonb beside them.
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});

/**
 * The indexes of payload search over a derived jsonb column: `@>` containment (jsonb_path_ops) for
 * `path=value`, the words of its strings and numbers for "free text" (phraseto_tsquery), and the
 * rows the backfill has yet to parse (empty once it is done: inserts always set the column).
 */
export function searchJsonIndexes(prefix: string, column: AnyPgColumn, words: AnyPgColumn, id: AnyPgColumn, pending?: SQL) {
  return [
    index(`${prefix}_json_idx`).using('gin', sql`${column} jsonb_path_ops`),
    index(`${prefix}_words_gin_idx`).using('gin', words),
    index(`${prefix}_json_pending_idx`)
      .on(id)
      .where(pending ? sql`${column} is null and ${pending}` : sql`${column} is null`),
    // Rows whose jsonb was made before their words column existed (0019 → 0020), for the backfill.
    index(`${prefix}_words_pending_idx`)
      .on(id)
      .where(sql`${words} is null and ${column} is not null`),
  ];
}
