import { z } from 'zod';

/** Any well-formed UUID (PostgreSQL accepts every version, so do we; an unknown one is a 404). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const METADATA_MAX_KEYS = 50;

/** Free-form string labels a caller attaches to a resource (Svix-style metadata). */
export const ZMetadata = z
  .record(
    z.string().min(1).max(64, { message: 'keys must be at most 64 characters' }),
    z.string().max(1000, { message: 'values must be at most 1000 characters' }),
    {
      message: 'must be an object of string values',
    },
  )
  .refine((m) => Object.keys(m).length <= METADATA_MAX_KEYS, { message: `must have at most ${METADATA_MAX_KEYS} keys` });

export const ZCreateConnect = z.strictObject({
  name: z.string().trim().min(1, { message: 'must not be empty' }).max(100, { message: 'must be at most 100 characters' }).optional(),
  metadata: ZMetadata.optional(),
});

export type TCreateConnect = z.output<typeof ZCreateConnect>;
