import type { z } from 'zod';
import { validationError } from './errors';
import { assertStorable } from './storable-text';

/**
 * The query parameters `schema` names (an empty one counts as absent), parsed by it: a wrong value
 * is a 400 naming the parameter ("Invalid query: status: must be one of …"). Others are ignored.
 */
export function parseQuery<S extends z.ZodObject>(searchParams: URLSearchParams, schema: S): z.output<S> {
  const raw: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = searchParams.get(key);
    if (value !== null && value !== '') raw[key] = value;
  }
  assertStorable(raw, 'query');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'query');
  return parsed.data;
}
