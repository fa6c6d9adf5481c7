import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import { ApiError } from '@/lib/http/errors';
import { describeForLog } from '@/lib/http/log-error';
import { isUnsupported } from './connect-api/errors';
import { apiErrorInfo, asConnectApiError } from './connect-api/load-or-error';
import type { TErrorInfo } from './error-info';

// What a server action returns: a small result, never a thrown error (staffAction and
// staffFormAction in lib/console/staff/staff-action.ts make it; app/(console)/_lib/errors.ts
// re-exports it for the pages' client components).

/** For server actions: never throw at the client; unknown errors become a generic message (and a log line). */
export function actionErrorInfo(err: unknown): TErrorInfo {
  unstable_rethrow(err);
  if (asConnectApiError(err)) return apiErrorInfo(err);
  // The console's own modules (receivers, tracking) report bad input as ApiError.
  if (err instanceof ApiError) return { message: err.message, errors: err.extra.errors };
  console.error(`[console action] ${describeForLog(err)}`);
  return { message: err instanceof Error && err.name === 'ZodError' ? 'The API answered with an unexpected shape.' : 'Unexpected error; see the server log.' };
}

/** An action's failure: its error info, and `unsupported` when the API does not offer the feature. */
export function actionFailure(err: unknown): { ok: false; error: TErrorInfo; unsupported?: boolean } {
  const error = actionErrorInfo(err);
  return isUnsupported(err) ? { ok: false, error, unsupported: true } : { ok: false, error };
}

/** What a server action returns to the client: a small result, never a thrown error. */
export type TActionResult<T = undefined> = { ok: true; data?: T; notice?: string } | { ok: false; error: TErrorInfo; unsupported?: boolean };

/** The state of a form driven by useActionState: field errors inline, API errors in a callout, values to refill. */
export type TFormState = {
  ok?: boolean;
  notice?: string;
  /** Done, but something staff should know (shown beside the notice). */
  warnings?: string[];
  /** Not done yet: what saving would cause; the form asks again, and a second submission with `confirmed` saves. */
  confirm?: string[];
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
