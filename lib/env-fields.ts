import { z } from 'zod';
import { parseDuration } from '@/lib/duration';

// The shapes of lib/env.ts's settings (and lib/env-tuning.ts's), each with the message a bad value gets.

/** The audience of the Giving Connect API when nothing else is said (the embedded service's default too). */
export const DEFAULT_AUDIENCE = 'https://api.giving-connect.test';

export const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A boolean that may be left unset (its default then depends on other settings). */
export const optionalBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1' || v === 'yes'));

export const int = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'must be a whole number' })
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` })
    .default(fallback);

export const url = z.url({ protocol: /^https?$/, message: 'must be an absolute http(s) URL' });

export const secondsList = z
  .string()
  .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/, { message: 'must be comma-separated seconds, e.g. 5,300,1800' })
  .transform((s) => s.split(',').map((x) => Number(x.trim())));

/** A duration (`90d`, `12h`, `30m`, `45s`: lib/duration.ts), as milliseconds. */
export const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const ms = parseDuration(v);
      if (ms === null) ctx.addIssue({ code: 'custom', message: 'must be a duration such as 90d, 12h, 30m or 45s' });
      return ms ?? 0;
    });

export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));
