import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import type { TErrorInfo } from '@/lib/console/error-info';
import { ConnectApiError, isUnsupported } from './errors';

// An API read for a page that shows a failure inline (<ErrorCallout>) instead of failing the page.
// Server actions and JSON routes have their own shapes (app/(console)/_lib/errors.ts).

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
