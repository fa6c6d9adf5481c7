import 'server-only';
import { redirect } from 'next/navigation';
import type { z } from 'zod';
import { actionErrorInfo, actionFailure, fieldErrorsOf, type TActionResult, type TFormState } from '../action-result';
import { audited, type TAuditNote, type TNoteAudit } from '../audit/audited';
import type { TAuditAction } from '../audit/audit-actions';
import { connectApi, type ConnectApi } from '../connect-api';
import type { TErrorInfo } from '../error-info';
import type { TRole } from './roles';
import { requireRole, type TStaff } from './session';

// The wrappers of the console's server actions (dub's authActionClient): the session and the role
// re-checked (requireRole: the login page without a session, a 403 below the role), the input parsed
// with zod, every error converted one way (actionErrorInfo) and, with `audit`, the ok/error pair of
// the audit log written once (lib/console/audit/audited.ts). The action's body holds only its
// happy path and throws the rest.
//
//   export const resendMessageAction = staffAction(
//     { role: 'operator', input: z.tuple([ZId, ZId]), audit: { action: 'message.resend', target: ([w, m]) => [w, m] } },
//     async ({ api, input: [w, m], audit }) => { … return { data, notice }; },
//   );
//
// Three shapes, one guard: staffAction (called with arguments), staffFormAction (a form with state,
// useActionState) and staffFormPost (a plain <form action>, nothing to answer with).

export type TActionContext<I> = { staff: TStaff; api: ConnectApi; input: I; audit: TNoteAudit };
export type TActionAudit<I> = {
  action: TAuditAction | ((input: I) => TAuditAction);
  target?: (input: I) => string[];
  detail?: (input: I) => TAuditNote['detail'];
};

type TCommon<I> = { role: TRole; audit?: TActionAudit<I>; /** where the login page returns to */ next?: string };

function withAudit<I, R>(staff: TStaff, input: I, audit: TActionAudit<I> | undefined, run: (note: TNoteAudit) => Promise<R>): Promise<R> {
  if (!audit) return run(() => {});
  const action = typeof audit.action === 'function' ? audit.action(input) : audit.action;
  return audited(staff, action, { target: audit.target?.(input), detail: audit.detail?.(input) }, run);
}

/**
 * An action called with arguments (`input` parses them as a tuple) that answers a TActionResult:
 * `{ ok: true, data?, notice? }` from the body, `{ ok: false, error }` for bad input (`invalid`)
 * or anything the body throws (with `unsupported` when the API lacks the feature).
 */
export function staffAction<A extends unknown[], I, D = undefined>(
  options: TCommon<I> & { input: z.ZodType<I, A>; invalid?: string | ((error: z.ZodError) => string) },
  body: (ctx: TActionContext<I>) => Promise<{ data?: D; notice?: string } | void>,
): (...args: A) => Promise<TActionResult<D>> {
  return async (...args: A) => {
    const staff = await requireRole(options.role, options.next);
    const parsed = options.input.safeParse(args);
    if (!parsed.success) {
      const message = typeof options.invalid === 'function' ? options.invalid(parsed.error) : (options.invalid ?? 'Invalid request.');
      return { ok: false, error: { message } };
    }
    const input = parsed.data;
    try {
      const done = await withAudit(staff, input, options.audit, (audit) => body({ staff, api: connectApi(staff.environment), input, audit }));
      return { ok: true, ...(done ?? {}) };
    } catch (err) {
      return actionFailure(err);
    }
  };
}

type TRaw = Record<string, string | string[] | boolean>;

/** The API's or the console's field errors (`errors[].path`) as the form's fields. */
export const errorFields = (error: TErrorInfo, field: (path: string) => string | null = (p) => p): Record<string, string> =>
  Object.fromEntries((error.errors ?? []).flatMap((e) => (field(e.path) ? [[field(e.path), e.message]] : [])));

/**
 * An action behind a form (useActionState): `read` takes the raw values from the FormData, bad
 * input comes back as field errors with the values to refill, a thrown error as the callout (and
 * its field errors through `onError`), and a string from the body is where to go (redirected to
 * after the audit is written). The state's `nonce` bumps on every submission.
 */
export function staffFormAction<I, S extends TFormState = TFormState>(
  options: TCommon<I> & {
    read: (form: FormData) => TRaw;
    input: z.ZodType<I>;
    /** a message instead of field errors, for forms whose fields are hidden */
    invalid?: string;
    onError?: (error: TErrorInfo, ctx: { staff: TStaff; input: I }) => TFormState;
  },
  body: (ctx: TActionContext<I> & { raw: TRaw }) => Promise<NoInfer<S> | string>,
): (prev: TFormState, form: FormData) => Promise<S> {
  return async (prev, form) => {
    const staff = await requireRole(options.role, options.next);
    const raw = options.read(form);
    const nonce = (prev?.nonce ?? 0) + 1;
    const parsed = options.input.safeParse(raw);
    if (!parsed.success) {
      return (options.invalid ? { error: { message: options.invalid }, nonce } : { fieldErrors: fieldErrorsOf(parsed.error.issues), values: raw, nonce }) as S;
    }
    const input = parsed.data;
    let done: S | string;
    try {
      done = await withAudit(staff, input, options.audit, (audit) => body({ staff, api: connectApi(staff.environment), input, audit, raw }));
    } catch (err) {
      const error = actionErrorInfo(err);
      const state = options.onError?.(error, { staff, input }) ?? { error, fieldErrors: errorFields(error) };
      return { ...state, values: raw, nonce } as S;
    }
    if (typeof done === 'string') redirect(done);
    return { ...done, ...(done.ok ? {} : { values: raw }), nonce };
  };
}

/**
 * An action behind a plain form (`<form action={…}>`, no state to answer with): `read` takes the
 * values from the FormData and `input` parses them; bad input (a call without a form included) does
 * nothing; a string from the body is where to go. Errors the body throws are the page's (the form
 * has nowhere to show them).
 */
export function staffFormPost<I>(
  options: TCommon<I> & { read: (form: FormData) => TRaw; input: z.ZodType<I> },
  body: (ctx: TActionContext<I>) => Promise<string | void>,
): (form: FormData) => Promise<void> {
  return async (form) => {
    const staff = await requireRole(options.role, options.next);
    const parsed = form instanceof FormData ? options.input.safeParse(options.read(form)) : null;
    if (!parsed?.success) return;
    const input = parsed.data;
    const to = await withAudit(staff, input, options.audit, (audit) => body({ staff, api: connectApi(staff.environment), input, audit }));
    if (typeof to === 'string') redirect(to);
  };
}
