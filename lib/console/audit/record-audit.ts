import 'server-only';
import { ConnectApiError } from '@/lib/console/connect-api/errors';
import { getDb, type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/console';
import { describeForLog } from '@/lib/http/log-error';
import { ApiError, ERROR_STATUS } from '@/lib/http/errors';
import { scrubText } from '@/lib/console/export/redact-export';
import type { TAuditAction } from './audit-actions';

// The one way into console.audit_log. Every staff action calls it once, from the place the action
// runs (a server action or console route), after the outcome is known:
//
//   await recordAudit({ actor: staff, action: 'webhook.disable', target: [webhookId], result: 'ok' });
//   await recordAudit({ actor: staff, action: 'message.resend', target: [webhookId, messageId], result: auditResultOf(err) });
//
// An action with an ok/error pair uses audited() (./audited.ts), which writes both; server actions
// and JSON routes name their audit in their wrapper (staffAction, withStaff's `audit`). The database
// is the process's, or the transaction passed as the second argument.
//
// - actor: the signed-in staff member (`TStaff` has all of it), or `{ email }` alone for a failed login.
// - action: one of AUDIT_ACTIONS (add yours there).
// - target: the ids acted on, most specific last (`[webhookId, messageId]`); [] when none.
// - result: 'ok', or an error code — `auditResultOf(err)` turns a thrown error into one.
// - detail: a few small facts (a window, a count, a name). Strings are cut to 200 characters and
//   scrubbed of whsec_/sk_ keys, bearer tokens and e-mail addresses, and keys
//   that name secrets are dropped: never pass a secret, but one passed by mistake is not stored.
// Rows are append-only: nothing in the console updates or deletes them. A failure to write is
// logged and does not undo or fail the action it describes.

export type TAuditActor = { userId?: string | null; email: string; environment?: string };
export type TAuditEntry = {
  actor: TAuditActor;
  action: TAuditAction;
  target?: string[];
  result: string;
  detail?: Record<string, string | number | boolean | null>;
  source?: string;
};

const SECRET_KEY = /secret|password|token|key|signature/i;
const MAX_DETAIL_STRING = 200;

function cleanDetail(detail: TAuditEntry['detail']): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [k, v] of Object.entries(detail ?? {}).slice(0, 20)) {
    if (SECRET_KEY.test(k)) continue;
    out[k.slice(0, 50)] = typeof v === 'string' ? scrubText(v, false).slice(0, MAX_DETAIL_STRING) : v;
  }
  return out;
}

const CODE_OF_STATUS = new Map<number, string>(Object.entries(ERROR_STATUS).map(([code, status]) => [status, code]));

/**
 * An error as the audit log's result code: the API's status as a code (`not_found`, `conflict`),
 * `network_error`, `unsupported`; the console's own ApiError by its code; anything else `error`.
 */
export function auditResultOf(err: unknown): string {
  if (err instanceof ApiError) return err.code;
  if (err instanceof ConnectApiError) {
    if (err.status === 0) return 'network_error';
    if (err.unsupported) return 'unsupported';
    return auditResultOfStatus(err.status);
  }
  return 'error';
}

/** An HTTP status as the audit log's result: 'ok' below 400, else its code (`not_found`, `http_418`). */
export function auditResultOfStatus(status: number): string {
  return status < 400 ? 'ok' : (CODE_OF_STATUS.get(status) ?? `http_${status}`);
}

/** Appends one row to the audit log (in `db` when given: a transaction the row belongs to). */
export async function recordAudit(entry: TAuditEntry, db?: DbOrTx): Promise<void> {
  try {
    await (db ?? (await getDb())).insert(schema.auditLog).values({
      actorId: entry.actor.userId ?? null,
      actor: entry.actor.email.slice(0, 320),
      action: entry.action,
      target: (entry.target ?? []).filter(Boolean).join(' ').slice(0, 1000),
      result: entry.result.slice(0, 100),
      detail: cleanDetail(entry.detail),
      environment: entry.actor.environment ?? '',
      source: (entry.source ?? '').slice(0, 100),
    });
  } catch (err) {
    console.error(`[audit] could not record ${entry.action}: ${describeForLog(err)}`);
  }
}
