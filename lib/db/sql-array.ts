import { sql, type SQL } from 'drizzle-orm';

/** Values as one SQL array of `type`, each a bound parameter: for `= any(…)` and `unnest(…)`. */
export function sqlArray(values: readonly (string | number)[], type: 'text' | 'uuid' | 'timestamptz'): SQL {
  return sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::${sql.raw(type)}[]`;
}
