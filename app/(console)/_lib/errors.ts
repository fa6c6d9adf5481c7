import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import { ConnectApiError, isUnsupported } from '@/lib/console/connect-api';
import { ApiError } from '@/lib/http/errors';
import { describeForLog } from '@/lib/http/log-error';
import type { TErrorInfo } from '@/components/console/callout';

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

/** Runs an API call; on a ConnectApiError returns `{ error }` for an inline callout instead of throwing. */
export async function attempt<T>(
  fn: () => Promise<T>,
): Promise<{ data: T; error?: undefined; unsupported?: undefined } | { data?: undefined; error: TErrorInfo; unsupported: boolean }> {
  try {
    return { data: await fn() };
  } catch (err) {
    return { error: apiErrorInfo(err), unsupported: isUnsupported(err) };
  }
}
