import { z } from 'zod';

// What Next passes a page (App Router, Next 15+: both are promises). `P` names the route's params.
export type TSearchParams = Record<string, string | string[] | undefined>;
export type TPageProps<P extends Record<string, string> = Record<string, never>> = { params: Promise<P>; searchParams: Promise<TSearchParams> };

/** A query parameter's one value: the first of repeated ones; an empty one counts as absent. */
function firstValue(params: TSearchParams | URLSearchParams, key: string): string | undefined {
  const v = params instanceof URLSearchParams ? params.get(key) : params[key];
  const one = Array.isArray(v) ? v[0] : v;
  return one === '' || one === null ? undefined : one;
}

/**
 * A page's query parameters, the ones `schema` names, parsed by it. Pages are forgiving — a bad
 * value in a shared link should drop that value, not fail the page — so each field of a page's
 * schema ends in `.catch(…)`; a JSON route parses strictly instead (lib/http/query.ts).
 */
export function pageQuery<S extends z.ZodObject>(params: TSearchParams | URLSearchParams, schema: S): z.output<S> {
  return schema.parse(Object.fromEntries(Object.keys(schema.shape).map((k) => [k, firstValue(params, k)])));
}

/** The page's query as URLSearchParams (one value a key), for the parsers a page shares with its route. */
export function pageSearchParams(params: TSearchParams): URLSearchParams {
  return new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
}

/** A list page's one parameter: the page of the list to show (a bad one shows the first). */
export const ZPageTokenSearch = z.object({ pageToken: z.string().max(2000).optional().catch(undefined) });
