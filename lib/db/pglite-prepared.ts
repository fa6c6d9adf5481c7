import type { PGlite, protocol as pgliteProtocol, types as pgliteTypes } from '@electric-sql/pglite';

// Prepared statements on the embedded store, as node-postgres makes them on PostgreSQL: a named
// statement is parsed, analysed and described once per client, then each call is one Bind,
// Execute and Sync sent to PGlite in one message. PGlite's own query() sends Parse, Describe
// statement, Bind, Describe portal, Execute and Sync one by one for every call, so PostgreSQL
// parses, rewrites and plans the statement each time and PGlite decodes six replies: for the few
// fixed statements of a grant and its deliveries (issue 42), that was a third of the store's work.
// The statement runs under PGlite's own locks (no statement or transaction of another caller
// between its messages), and its values and rows go through the client's serializers and parsers,
// as query()'s do. PostgreSQL plans a prepared statement again when a table it reads changes shape.

type TMessage = { name: string };
type TField = { name: string; dataTypeID: number };
type TStatement = { paramTypes: number[]; fields: TField[] };

/** Joins protocol messages into one buffer (PGlite runs a buffer's messages one after another). */
function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * A `query(text, params, name)` for `client` that prepares `name` (one fixed `text` per name) on
 * first use and runs it by name after. `pglite`: the module's `protocol` and `types` (loaded by the caller).
 */
export function preparedQueries(client: PGlite, { protocol, types }: { protocol: typeof pgliteProtocol; types: typeof pgliteTypes }) {
  const { serialize } = protocol;
  const statements = new Map<string, Promise<TStatement>>();

  /** Parse and Describe: what the statement takes and returns, once per name. */
  const prepare = async (name: string, text: string): Promise<TStatement> => {
    const replies = (await client.execProtocolStream(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
      syncToFs: false,
    })) as unknown as TMessage[];
    let paramTypes: number[] = [];
    let fields: TField[] = [];
    for (const m of replies) {
      if (m.name === 'parameterDescription') paramTypes = (m as unknown as { dataTypeIDs: number[] }).dataTypeIDs;
      if (m.name === 'rowDescription') fields = (m as unknown as { fields: TField[] }).fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID }));
    }
    return { paramTypes, fields };
  };

  return async function query<T>(text: string, params: unknown[], name: string): Promise<T[]> {
    return client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        let statement = statements.get(name);
        if (!statement) {
          statement = prepare(name, text);
          statements.set(name, statement);
          statement.catch(() => statements.delete(name)); // a statement that did not parse is not kept
        }
        const { paramTypes, fields } = await statement;
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const serializer = client.serializers[paramTypes[i]];
          return serializer ? serializer(v) : String(v);
        });
        const replies = (await client.execProtocolStream(
          concat([serialize.bind({ statement: name, values: values as string[] }), serialize.execute({}), serialize.sync()]),
        )) as unknown as TMessage[];
        const rows: T[] = [];
        for (const m of replies) {
          if (m.name !== 'dataRow') continue;
          const cells = (m as unknown as { fields: (string | null)[] }).fields;
          const row: Record<string, unknown> = {};
          for (let i = 0; i < fields.length; i++) row[fields[i].name] = types.parseType(cells[i], fields[i].dataTypeID, client.parsers);
          rows.push(row as T);
        }
        return rows;
      }),
    );
  };
}
