import { type z } from 'zod';
import { MAX_BODY_BYTES } from '@/lib/constants';
import { ApiError, validationError } from './errors';
import { assertStorable } from './storable-text';

/** The raw body, refused with 413 past `limit` bytes (checked on the header and while reading). */
export async function readBodyBytes(req: Request, limit: number = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers.get('content-length') ?? '0');
  if (declared > limit) throw new ApiError('payload_too_large', `The body is ${declared} bytes; the limit is ${limit}.`);
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw new ApiError('payload_too_large', `The body is over the limit of ${limit} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * The JSON body, validated by `schema`. 413 over 256 KiB, 415 when not JSON, 400 when malformed,
 * when a string holds what cannot be stored (NUL, lone surrogate) or invalid (one entry per wrong field). `optional` lets an empty body stand for `{}`.
 */
export async function readJson<S extends z.ZodType>(req: Request, schema: S, { optional = false }: { optional?: boolean } = {}): Promise<z.output<S>> {
  const bytes = await readBodyBytes(req);
  const text = Buffer.from(bytes).toString('utf8');
  let value: unknown;
  if (text.trim() === '') {
    if (!optional) throw new ApiError('bad_request', 'A JSON body is required.');
    value = {};
  } else {
    if (!isJsonType(req.headers.get('content-type'))) {
      throw new ApiError('unsupported_media_type', 'The body must be JSON, sent with Content-Type: application/json.');
    }
    try {
      value = JSON.parse(text);
    } catch {
      throw new ApiError('bad_request', 'The body is not valid JSON.');
    }
  }
  assertStorable(value, 'body');
  // reportInput lets the error say "is required" for a missing field (see zodFieldErrors).
  const result = schema.safeParse(value, { reportInput: true });
  if (!result.success) throw validationError(result.error, 'body');
  return result.data;
}
