import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getDb, type Tx } from '@/lib/db/client';
import { queryRows } from '@/lib/db/query';
import { sqlArray } from '@/lib/db/sql-array';
import { eraseFromArchive } from '@/lib/db/archive/erase-archive';
import { ID_CLOCK_SLACK_MS } from '@/lib/ids';
import { SERVICE_PURGE } from '../retention/purge-service';

// EXT POST /v1/erasures: one donor's data erased from the service, on request (GDPR). The donor is
// named by an e-mail (every grant of the account given with it, whatever its case) or a grant id.
// Every field that carries the donor is replaced by a tombstone `erased:<SHA-256 of what was there>`:
//   grants    first and last name, e-mail (the hash of its lower-case form, so a later request by
//             the same e-mail still finds it), phone, note; metadata becomes {"erased": <hash>};
//   messages  of those grants (tags grant:<id> or donor:<email>): the payload becomes
//             {"erased":{at, sha256}}, the donor:/name: tags become erased:<hash>;
//   attempts  of those messages: the response body is emptied (its size and hash kept, marked erased);
//   deliveries of those messages still waiting to retry end `failed`, stopped by the erasure;
//   the grants' idempotency keys are deleted (their stored answer is the grant).
// Ids, amounts, statuses, times and every other tag stay, so deliveries still reconcile. One
// transaction; a second request finds the same grants and messages and erases nothing more.
// `dryRun` counts what would be erased and changes nothing (the console's preview). With ARCHIVE_DIR,
// the archived copies of those payloads and answers are erased as well (eraseArchived).

export type TErasureSubject = { email: string } | { grantId: string };
export type TErasureReport = {
  subject: { kind: 'email' | 'grantId'; sha256: string };
  dryRun: boolean;
  erasedAt: string | null;
  grants: { found: number; erased: number };
  messages: { found: number; erased: number };
  attempts: { erased: number };
  /** The messages of the donor (erased now or before): the console erases its receipts of these. */
  messageIds: string[];
};

/** A text[] of `values` as one SQL expression (drizzle spreads a bare array into a list). */
const texts = (values: string[]) => sqlArray(values, 'text');
const hex = (s: string) => createHash('sha256').update(s).digest('hex');
const H = (v: ReturnType<typeof sql>) => sql`encode(sha256(convert_to(${v}, 'UTF8')), 'hex')`;

async function findGrants(tx: Tx, accountId: string, subject: TErasureSubject) {
  const where =
    'email' in subject
      ? sql`(lower(email) = lower(${subject.email}) or email = ${`erased:${hex(subject.email.toLowerCase())}`})`
      : sql`id::text = ${subject.grantId}`;
  return queryRows<{ id: string; email: string; erased: boolean }>(
    tx,
    sql`select id, lower(email) as email, erased_at is not null as erased from service.grants where account_id = ${accountId} and ${where} for update`,
  );
}

export async function eraseDonor(accountId: string, subject: TErasureSubject, { dryRun = false } = {}): Promise<TErasureReport> {
  const report = await eraseInStore(accountId, subject, dryRun);
  if (!dryRun) await eraseArchived(accountId, report.messageIds, 'email' in subject ? subject.email.toLowerCase() : null);
  return report;
}

/**
 * With ARCHIVE_DIR, the donor's messages and their answers archived before a purge are erased from
 * the archive too (lib/db/archive/erase-archive.ts): those of the donor's messages, and any of the account's
 * archived payloads that carry the e-mail. After the store's transaction: a crash between the two
 * leaves the archive to a second request, which finds the same messages.
 */
async function eraseArchived(accountId: string, messageIds: string[], email: string | null): Promise<void> {
  const ids = new Set(messageIds);
  const mine = (r: Record<string, unknown>) => r.accountId === accountId;
  await eraseFromArchive(
    'messages',
    SERVICE_PURGE,
    (r) =>
      mine(r) &&
      (ids.has(String(r.id)) ||
        (email !== null &&
          String(r.payload ?? '')
            .toLowerCase()
            .includes(email))),
  );
  await eraseFromArchive('attempts', SERVICE_PURGE, (r) => mine(r) && ids.has(String(r.messageId)));
}

async function eraseInStore(accountId: string, subject: TErasureSubject, dryRun: boolean): Promise<TErasureReport> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const grants = await findGrants(tx, accountId, subject);
    const tags = [
      ...grants.map((g) => `grant:${g.id}`),
      ...grants.filter((g) => !g.erased).map((g) => `donor:${g.email}`),
      ...('email' in subject ? [`donor:${subject.email.toLowerCase()}`] : []),
    ];
    // The one read of every messages partition: a donor's messages may be of any day the store keeps (ARCHITECTURE.md).
    const messages = tags.length
      ? await queryRows<{ id: string; erased: boolean; created_at: Date | string }>(
          tx,
          sql`select id, erased_at is not null as erased, created_at from service.messages
               where account_id = ${accountId} and tags && ${texts(tags)} order by created_at for update`,
        )
      : [];
    const ids = messages.map((m) => m.id);
    const open = messages.filter((m) => !m.erased).map((m) => m.id);
    // The writes name their partitions: the messages' created_at, which is their deliveries' too; their attempts come after
    // the oldest of them and before now, give or take the slack of a clock (an attempt's time is the app's, a message's the
    // store's), so those partitions alone are planned, not the ones made ahead nor those before the donor's first message.
    const times = [...new Set(messages.filter((m) => !m.erased).map((m) => new Date(m.created_at).toISOString()))];
    const at = sqlArray(times, 'timestamptz');
    const since = times.length ? new Date(Date.parse(times[0]) - ID_CLOCK_SLACK_MS).toISOString() : 'infinity';
    const until = new Date(Date.now() + ID_CLOCK_SLACK_MS).toISOString();
    const attemptsBetween = sql`a.created_at >= ${since}::timestamptz and a.created_at <= ${until}::timestamptz`;
    const grantIds = grants.filter((g) => !g.erased).map((g) => g.id);
    let attempts = 0;
    const [{ now }] = await queryRows<{ now: Date }>(tx, sql`select now() as now`);
    if (dryRun) {
      const [row] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from service.attempts a join service.deliveries d on a.webhook_id = d.webhook_id and a.message_id = d.message_id
             where d.message_id = any(${texts(open)}) and d.created_at = any(${at}) and ${attemptsBetween} and a.response_purged_at is null`,
      );
      attempts = row.n;
    } else {
      if (open.length) {
        await queryRows(
          tx,
          sql`update service.messages m
                 set payload = json_build_object('erased', json_build_object('at', now(), 'sha256', ${H(sql`m.payload`)}))::text,
                     tags = array(select case when t like 'donor:%' or t like 'name:%' then 'erased:' || ${H(sql`t`)} else t end from unnest(m.tags) t),
                     payload_json = 'null'::jsonb,
                     erased_at = now(), payload_purged_at = coalesce(m.payload_purged_at, now())
               where m.id = any(${texts(open)}) and m.created_at = any(${at}) returning 1`,
        );
        const rows = await queryRows(
          tx,
          sql`update service.attempts a
                 set response = '', response_size = octet_length(a.response), response_sha256 = ${H(sql`a.response`)}, response_purged_at = now(),
                     response_erased = true
                from service.deliveries d
               where d.message_id = any(${texts(open)}) and d.created_at = any(${at}) and ${attemptsBetween}
                 and a.webhook_id = d.webhook_id and a.message_id = d.message_id and a.response_purged_at is null
               returning 1`,
        );
        attempts = rows.length;
        // Its waiting deliveries have nothing left to send: they end now, saying why (EXT
        // retriesStopped). One being sent finishes its attempt; if that fails, the worker finds the
        // payload gone at the retry and ends it the same way (abandonClaim).
        await queryRows(
          tx,
          sql`update service.deliveries set status = 'failed', next_attempt_at = null, stop_reason = 'donor_erased', stopped_at = now(), updated_at = now()
               where message_id = any(${texts(open)}) and created_at = any(${at}) and status = 'pending' returning 1`,
        );
      }
      if (grantIds.length) {
        await queryRows(
          tx,
          sql`update service.grants g
                 set first_name = 'erased:' || ${H(sql`g.first_name`)}, last_name = 'erased:' || ${H(sql`g.last_name`)},
                     email = 'erased:' || ${H(sql`lower(g.email)`)},
                     phone = case when g.phone is null then null else 'erased:' || ${H(sql`g.phone`)} end,
                     note = case when g.note is null then null else 'erased:' || ${H(sql`g.note`)} end,
                     metadata = case when g.metadata = '{}'::jsonb then g.metadata else jsonb_build_object('erased', ${H(sql`g.metadata::text`)}) end,
                     erased_at = now(), updated_at = now()
               where g.id = any(${texts(grantIds)}::uuid[]) returning 1`,
        );
        await queryRows(tx, sql`delete from service.idempotency_keys where body->>'id' = any(${texts(grantIds)}) returning 1`);
      }
    }
    const subjectText = 'email' in subject ? subject.email.toLowerCase() : subject.grantId;
    return {
      subject: { kind: 'email' in subject ? 'email' : 'grantId', sha256: hex(subjectText) },
      dryRun,
      erasedAt: dryRun || (!open.length && !grantIds.length) ? null : new Date(now).toISOString(),
      grants: { found: grants.length, erased: grantIds.length },
      messages: { found: messages.length, erased: open.length },
      attempts: { erased: attempts },
      messageIds: ids,
    };
  });
}
