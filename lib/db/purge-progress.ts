// The end of every purge statement, in either half's schema: counts the rows the `done` CTE took
// into <schema>.retention_progress under `what` (the /retention page and the metrics read it),
// and returns that count as `n`.

export const progressCte = (schema: 'console' | 'service', what: string, { cursor = false } = {}) => `
  progress as (
    insert into ${schema}.retention_progress as p (what, purged, last_purge_at)
    select '${what}', count(*), now() from done having count(*) > 0
    on conflict (what) do update set purged = p.purged + excluded.purged, last_purge_at = excluded.last_purge_at
    returning 1)
  select count(*)::int as n${cursor ? ', max(done.at) as after' : ''} from done`;
