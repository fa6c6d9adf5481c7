import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import { ConnectApiError, isUnsupported } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { describeForLog } from '@/lib/http/log-error';

// The console's one error path. A failure reaches staff in one shape, TErrorInfo (plain and
// serialisable, shown by <ErrorCallout>): pages get it from loadOrError(), server actions return it
// in a TActionResult / TFormState, JSON routes answer problem+json through withStaff
// (lib/console/staff/with-staff.ts, mapping upstream failures by lib/console/upstream-problem.ts).

import type { TErrorInfo } from '@/lib/console/error-info';

export type { TErrorInfo };

/** The error as a ConnectApiError, or null (its `instanceof` holds across bundles). */
export function asConnectApiError(err: unknown): ConnectApiError | null {
  return err instanceof ConnectApiError ? err : null;
}

/** The readable, serialisable form of an API error; anything else is re-thrown (error.tsx shows it). */
export function apiErrorInfo(thrown: unknown): TErrorInfo {
  unstable_rethrow(thrown);
  const err = asConnectApiError(thrown);
  if (err) {
    return {
      message: err.problem?.detail || err.problem?.title || err.message,
      status: err.status,
      requestId: err.requestId,
      errors: err.problem?.errors,
    };
  }
  throw thrown;
}

/** For server actions: never throw at the client; unknown errors become a generic message (and a log line). */
export function actionErrorInfo(err: unknown): TErrorInfo {
  unstable_rethrow(err);
  if (asConnectApiError(err)) return apiErrorInfo(err);
  // The console's own modules (receivers, tracking) report bad input as ApiError.
  if (err instanceof ApiError) return { message: err.message, errors: err.extra.errors };
  console.error(`[console action] ${describeForLog(err)}`);
  return { message: err instanceof Error && err.name === 'ZodError' ? 'The API answered with an unexpected shape.' : 'Unexpected error; see the server log.' };
}

export { isUnsupported as isUnsupportedError };

/** Runs an API read for a page; on a ConnectApiError returns `{ error }` for an inline callout instead of throwing. */
export async function loadOrError<T>(
  fn: () => Promise<T>,
): Promise<{ data: T; error?: undefined; unsupported?: undefined } | { data?: undefined; error: TErrorInfo; unsupported: boolean }> {
  try {
    return { data: await fn() };
  } catch (err) {
    return { error: apiErrorInfo(err), unsupported: isUnsupported(err) };
  }
}

/** What a server action returns to the client: a small result, never a thrown error. */
export type TActionResult<T = undefined> =
  | { ok: true; data?: T; notice?: string }
  | { ok: false; error: TErrorInfo; unsupported?: boolean };

/** The state of a form driven by useActionState: field errors inline, API errors in a callout, values to refill. */
export type TFormState = {
  ok?: boolean;
  notice?: string;
  /** Done, but something staff should know (shown beside the notice). */
  warnings?: string[];
  error?: TErrorInfo;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string | string[] | boolean>;
  /** bumps on every submission, so the form can re-mount with `values` as defaults */
  nonce?: number;
};

/** First zod issue per field, keyed by its path. */
export function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of issues) {
    const key = i.path.map(String).join('.') || 'form';
    out[key] ??= i.message;
  }
  return out;
}
