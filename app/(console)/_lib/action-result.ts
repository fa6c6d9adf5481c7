import type { TErrorInfo } from '@/components/console/callout';

/** What a server action returns to the client: a small result, never a thrown error. */
export type TActionResult<T = undefined> =
  | { ok: true; data?: T; notice?: string }
  | { ok: false; error: TErrorInfo; unsupported?: boolean };

/** The state of a form driven by useActionState: field errors inline, API errors in a callout, values to refill. */
export type TFormState = {
  ok?: boolean;
  notice?: string;
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
