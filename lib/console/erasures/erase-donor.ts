import 'server-only';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { auditResultOf, recordAudit } from '@/lib/console/audit/record-audit';
import type { ConnectApi, TErasureReport } from '@/lib/console/connect-api';
import { driverRows } from '@/lib/db/query';
import { eraseFromArchive } from '@/lib/db/archive/erase-archive';
import { archivedReceiptMentions, CONSOLE_PURGE, FORWARD_REPLIES, KEPT_HEADERS } from '../retention/purge-console';
import { revokeSharesFor } from '../share/shares';
import { forgetAttemptBodies } from '../timeline/attempts-of-message';
import type { TStaff } from '../staff/session';

// POST /api/erasures {email | grantId, dryRun?}: one donor erased across both halves, on request.
// The service erases its own (EXT POST /v1/erasures) and names the donor's messages; this console
// then erases its receipts of them — and any receipt whose body or headers carry the e-mail — the
// body gone (its SHA-256 kept), the headers cut to those that name the delivery, erased_at set,
// and the reply bodies of its forwards gone (lib/console/forward).
// One report of both halves; the audit log records it with the SHA-256 of the e-mail, never the
// e-mail. Idempotent: a second request reports nothing left. `dryRun`: counts only (the preview).

export const ZErasureRequest = z
  .strictObject({
    email: z.email({ message: 'must be a valid email address' }).max(254).optional(),
    grantId: z.uuid({ message: 'must be a grant id (a UUID)' }).optional(),
    dryRun: z.boolean({ message: 'must be true or false' }).default(false),
  })
  .refine((b) => (b.email === undefined) !== (b.grantId === undefined), { message: 'must name either email or grantId (one of them)', path: ['email'] });
export type TErasureRequest = z.output<typeof ZErasureRequest>;

export type TConsoleErasureReport = {
  subject: { kind: 'email' | 'grantId'; sha256: string };
  dryRun: boolean;
  service: TErasureReport;
  /** archivedReceipts: records erased from ARCHIVE_DIR's files (0 without it). */
  console: { receipts: { found: number; erased: number }; shareLinks: { revoked: number }; archivedReceipts: number };
};

const MATCHES = `(r.message_id = any($1::text[])
    or ($2::text is not null and ((r.body_utf8 and r.body is not null and position($2 in lower(convert_from(r.body, 'UTF8'))) > 0)
                                 or position($2 in lower(r.headers::text)) > 0)))`;

async function eraseReceipts(messageIds: string[], email: string | null, dryRun: boolean): Promise<{ found: number; erased: number }> {
  const [found] = await driverRows<{ n: number; open: number }>(
    `select count(*)::int as n, (count(*) filter (where r.erased_at is null))::int as open from console.receipts r where ${MATCHES}`,
    [messageIds, email],
  );
  if (dryRun) return { found: found.n, erased: found.open };
  const erased = await driverRows(
    `with done as (update console.receipts r
        set body = null,
            body_json = null,
            body_sha256 = case when r.body is null then r.body_sha256 else encode(sha256(r.body), 'hex') end,
            headers = coalesce((select jsonb_agg(h) from jsonb_array_elements(r.headers) h where lower(h->>0) = any($3::text[])), '[]'::jsonb),
            erased_at = now(), body_purged_at = coalesce(r.body_purged_at, now())
      where ${MATCHES} and r.erased_at is null returning r.id),
     ${FORWARD_REPLIES('done.id', '$3')}
     select 1 from done`,
    [messageIds, email, KEPT_HEADERS],
  );
  return { found: found.n, erased: erased.length };
}

/** Erases (or counts) one donor in the service and in this console, audited without the e-mail. */
export async function eraseDonorEverywhere(staff: TStaff, api: ConnectApi, req: TErasureRequest): Promise<TConsoleErasureReport> {
  const subject = req.email !== undefined ? { email: req.email } : { grantId: req.grantId! };
  const sha256 = createHash('sha256')
    .update(req.email !== undefined ? req.email.toLowerCase() : req.grantId!)
    .digest('hex');
  const detail = { subject: req.email !== undefined ? 'email' : 'grantId', sha256, dryRun: req.dryRun };
  try {
    const service = await api.post('/v1/erasures', { body: { ...subject, dryRun: req.dryRun } });
    // Attempt answers this process read before may hold the donor: read them again from the service.
    if (!req.dryRun) forgetAttemptBodies();
    const email = req.email?.toLowerCase() ?? null;
    const receipts = await eraseReceipts(service.messageIds, email, req.dryRun);
    // With ARCHIVE_DIR, the receipts archived before a purge too (their bodies and headers).
    const ids = new Set(service.messageIds);
    const archived = req.dryRun
      ? 0
      : await eraseFromArchive('receipts', CONSOLE_PURGE, (r) => ids.has(String(r.messageId)) || (email !== null && archivedReceiptMentions(r, email)));
    // The donor's live share links end: those asked by the e-mail, the grant id or one of the messages.
    const shareLinks = { revoked: await revokeSharesFor([req.email ?? '', req.grantId ?? '', ...service.messageIds], req.dryRun) };
    const report = {
      subject: { kind: service.subject.kind, sha256 },
      dryRun: req.dryRun,
      service,
      console: { receipts, shareLinks, archivedReceipts: archived },
    };
    if (!req.dryRun) {
      await recordAudit({
        actor: staff,
        action: 'donor.erase',
        result: 'ok',
        detail: { ...detail, grants: service.grants.erased, messages: service.messages.erased, attempts: service.attempts.erased, receipts: receipts.erased },
      });
    }
    return report;
  } catch (err) {
    if (!req.dryRun) await recordAudit({ actor: staff, action: 'donor.erase', result: auditResultOf(err), detail });
    throw err;
  }
}
