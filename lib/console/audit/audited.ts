import 'server-only';
import { auditResultOf, recordAudit, type TAuditActor, type TAuditEntry } from './record-audit';
import type { TAuditAction } from './audit-actions';

// The ok/error pair of the audit log, written once: `audited` runs a staff action and appends one
// row when its outcome is known — 'ok', or the error's code (auditResultOf) before the error goes
// on. The target and detail may be noted while the action runs (a run's id, a count), so a failure
// halfway is logged with what was known by then. The wrappers of server actions (staffAction) and
// JSON routes (withStaff's `audit`) use it, as does each lib operation that audits itself.
//
//   await audited(staff, 'webhook.recover', { target: [webhookId], detail }, async (note) => {
//     const run = await api.post('/v1/webhooks/{id}/recover', { params: { path: { id: webhookId } }, body: window });
//     note({ target: [webhookId, run.id], detail: { messages: run.messages } });
//     return run;
//   });

export type TAuditNote = { target?: string[]; detail?: TAuditEntry['detail'] };
export type TNoteAudit = (note: TAuditNote) => void;

/** Next's redirect() is a thrown digest, not a failure: the action it ends went through. */
function isRedirect(err: unknown): boolean {
  const digest = (err as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' && digest.startsWith('NEXT_REDIRECT');
}

/** Runs `run` and logs its outcome once; `resultOf` reads a failure the run returns rather than throws (a response's status). */
export async function audited<R>(
  actor: TAuditActor,
  action: TAuditAction,
  start: TAuditNote,
  run: (note: TNoteAudit) => Promise<R>,
  resultOf: (out: R) => string = () => 'ok',
): Promise<R> {
  let target = start.target;
  let detail = start.detail;
  const note: TNoteAudit = (n) => {
    if (n.target) target = n.target;
    if (n.detail) detail = { ...detail, ...n.detail };
  };
  let out: R;
  try {
    out = await run(note);
  } catch (err) {
    await recordAudit({ actor, action, target, detail, result: isRedirect(err) ? 'ok' : auditResultOf(err) });
    throw err;
  }
  await recordAudit({ actor, action, target, detail, result: resultOf(out) });
  return out;
}
