import { z } from 'zod';

// Schemas every part of the document shares: problem details, the OAuth error, paging, and the
// shapes of timestamps and ids as the service writes them.

/** RFC 3339 UTC with milliseconds, as every timestamp the service returns. */
export const ZInstantOut = z.iso.datetime({ precision: 3 }).meta({ example: '2026-11-22T10:15:30.123Z' });
export const ZUuidOut = z.guid();
export const ZMetadataOut = z.record(z.string(), z.string()).meta({ description: 'Free-form string labels the caller attached.' });

export const ZFieldError = z.object({ path: z.string(), message: z.string() }).meta({ id: 'FieldError' });

/** RFC 9457 problem details: every error of the service but the token endpoint's OAuth errors. */
export const ZProblem = z
  .object({
    type: z.literal('about:blank'),
    title: z.string().meta({ example: 'Bad Request' }),
    status: z.int().min(400).max(599),
    detail: z.string().meta({ description: 'One human sentence saying what is wrong.' }),
    errors: z.array(ZFieldError).optional().meta({ description: 'One entry per invalid field (validation errors only).' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details (Content-Type: application/problem+json).' });

/** RFC 6749 §5.2: the token endpoint's errors. */
export const ZOAuthError = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'access_denied', 'temporarily_unavailable']),
    error_description: z.string(),
  })
  .meta({ id: 'OAuthError', description: 'An OAuth 2.0 error response (RFC 6749 §5.2).' });

/** `pageLimit` and `pageToken` of every list. */
export const ZPageQuery = z.object({
  pageLimit: z.int().min(1).max(100).default(10).optional().meta({ description: 'Results per page, 1–100 (default 10).' }),
  pageToken: z.string().optional().meta({ description: 'The `nextPageToken` of the previous page of the same list; opaque.' }),
});

/** The envelope of every list: newest first; `nextPageToken` absent on the last page. */
export function page<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      results: z.array(item),
      nextPageToken: z.string().optional().meta({ description: 'Pass as `pageToken` for the next page; absent on the last page.' }),
    })
    .meta({ id, description: 'One page of a list, newest first.' });
}

/** Compile-time proof that a hand-written response type and its schema describe the same JSON. */
export type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export function sameShape<A, B>(proof: TSame<A, B>): void {
  void proof;
}
