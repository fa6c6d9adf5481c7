import 'server-only';

// The console's one error path. A failure reaches staff in one shape, TErrorInfo (plain and
// serialisable, shown by <ErrorCallout>): pages get it from loadOrError(), server actions return it
// in a TActionResult / TFormState (their wrappers staffAction / staffFormAction,
// lib/console/staff/staff-action.ts), JSON routes answer problem+json through withStaff
// (lib/console/staff/with-staff.ts, mapping upstream failures by lib/console/upstream-problem.ts).

import { isUnsupported } from '@/lib/console/connect-api';

export type { TErrorInfo } from '@/lib/console/error-info';
export { apiErrorInfo, asConnectApiError, loadOrError } from '@/lib/console/connect-api/load-or-error';
export { actionErrorInfo, fieldErrorsOf, type TActionResult, type TFormState } from '@/lib/console/action-result';
export { isUnsupported as isUnsupportedError };
