import { STATUS_CODES } from 'node:http';
import { type z } from 'zod';
import { isStoreUnavailable, noteStoreError, STORE_RETRY_AFTER_S } from '@/lib/db/store-availability';
import { dataExceptionDetail } from './log-error';

// One error class with a closed list of codes; one code → status table; one toProblem().

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;
export type TFieldError = { path: string; message: string };

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly extra: { errors?: TFieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export type TProblem = {
  type: 'about:blank';
  title: string;
  status: number;
  detail: string;
  errors?: TFieldError[];
};

export function problemBody(status: number, detail: string, errors?: TFieldError[]): TProblem {
  return { type: 'about:blank', title: STATUS_CODES[status] ?? 'Error', status, detail, ...(errors?.length ? { errors } : {}) };
}

/**
 * One `{path, message}` per zod issue. A field that is absent says "is required" rather than its
 * type message: zod only tells absent from wrong when the schema was parsed with
 * `{ reportInput: true }` (then every issue carries `input`, `undefined` when absent).
 */
export function zodFieldErrors(error: z.ZodError, prefix: (string | number)[] = []): TFieldError[] {
  return error.issues.map((issue) => {
    const parts = [...prefix, ...issue.path].map(String);
    const fieldPath = parts.join('.');
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') message = `unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}`;
    else if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined && issue.path.length > 0) message = 'is required';
    return { path: fieldPath, message };
  });
}

/**
 * A 400 naming every field that is wrong: "Invalid body: url: is required (and 1 more)."
 * `what` names the input: 'body', 'query', 'receiver settings' (a leading "The" is dropped).
 */
export function validationError(error: z.ZodError, what = 'request'): ApiError {
  const errors = zodFieldErrors(error);
  const first = errors[0];
  const noun = what.replace(/^the\s+/i, '');
  const detail = first
    ? `Invalid ${noun}: ${first.path ? `${first.path}: ` : ''}${first.message}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}.`
    : `Invalid ${noun}.`;
  return new ApiError('bad_request', detail, { errors });
}

/** The answer while the database cannot be reached or cannot write: nothing was stored, try again. */
export function storeUnavailableError(): ApiError {
  return new ApiError('unavailable', `The database is unavailable right now; try again in ${STORE_RETRY_AFTER_S} seconds.`, {
    headers: { 'retry-after': String(STORE_RETRY_AFTER_S) },
  });
}

/**
 * Any thrown value as a status and problem body: a database's refusal of a value (out of range, a
 * character it cannot store) is a 400; a database that is unreachable or cannot write (stopped,
 * restarting, connection lost, disk full) a 503 with Retry-After; other unknown errors a bare 500
 * that leaks nothing.
 */
export function toProblem(err: unknown): { status: number; body: TProblem; headers: Record<string, string> } {
  if (!(err instanceof ApiError) && isStoreUnavailable(err)) {
    noteStoreError(err);
    err = storeUnavailableError();
  }
  if (err instanceof ApiError) {
    return { status: err.status, body: problemBody(err.status, err.message, err.extra.errors), headers: err.extra.headers ?? {} };
  }
  const dataProblem = dataExceptionDetail(err);
  if (dataProblem) return { status: 400, body: problemBody(400, dataProblem), headers: {} };
  return { status: 500, body: problemBody(500, 'An unexpected error occurred. Quote the request id when reporting it.'), headers: {} };
}
