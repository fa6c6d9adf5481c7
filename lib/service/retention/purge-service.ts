import { driverRows } from '@/lib/db/query';
import { archivedStep, repairArchive, sealArchive } from '@/lib/db/archive/write-archive';
import { progressCte } from '@/lib/db/purge-progress';
import { advanceCursor, countAdvancing, cursorOf, fromCursor, newestOf } from '@/lib/db/purge-cursor';
import { purgeIdleMs, startPurgeLoop, stopPurgeLoop, type TPurgeStep } from '@/lib/db/purge-loop';
import { formatDuration } from '@/lib/duration';
import { ensureUpkeepPartitions, startUpkeep, stopUpkeep, type TUpkeepSpec } from '@/lib/db/upkeep/upkeep-loop';
import { vacuumTables } from '@/lib/db/upkeep/vacuum-due';
import { env } from '@/lib/env';
import { ID_CLOCK_SLACK_SQL } from '@/lib/ids';
import { retentionOverrides, SERVICE_PURGE, type TRetentionOverride } from './account-retention';
import { alignedRetentionMs, ATTEMPTS_LEASE, ATTEMPTS_TABLE, attemptPartitionsStep } from './drop-attempts';
import { DELIVERIES_LEASE, DELIVERIES_TABLE, deliveryPartitionsStep } from './drop-deliveries';
import { MESSAGES_LEASE, MESSAGES_TABLE, messagePartitionsStep } from './drop-messages';
import { idempotencyKeysStep } from './expire-idempotency-keys';
import { dbKind } from '@/lib/db/client';
import { partitionInterval } from '@/lib/db/partitions/interval';

// The service's retention, in its own schema: MESSAGE_PAYLOAD_RETENTION and MESSAGE_RETENTION are the
// deployment's defaults, and an account may set its own (EXT /v1/retention, account-retention.ts).
// A tick's steps: each kind once over every account without an override of it (the default), then
// once per account with one, on its own index (service.account_retention is read at each tick).
//   message_payloads   a message's payload becomes its tombstone {"purged":{at, retention, size, sha256}};
//   attempt_responses  an attempt's response body is emptied, its size and SHA-256 kept beside it;
//   attempt_partitions the partitions of service.attempts past MESSAGE_RETENTION are dropped whole (drop-attempts.ts), but
//                      those holding what must stay; the first step, so the attempts of the messages below are mostly gone;
//   delivery_partitions the same of service.deliveries (drop-deliveries.ts), after the attempts of their range;
//   message_partitions the same of service.messages (drop-messages.ts), after the deliveries of their range;
//   messages           the message, its deliveries and their attempts left in partitions kept go (the stats keep their rollups);
//   idempotency_keys   grant requests' keys past their 24-hour window (expire-idempotency-keys.ts).
// The skeleton stays: ids, event type, tags, deliveries and their status, attempts' status codes,
// durations and times. The hold: a message with a delivery not (yet) successful — pending, sending,
// or failed (what the problems view shows) — keeps its payload and its attempts' bodies until it is
// resolved, or RETENTION_HOLD_MAX has passed. No row is deleted while a delivery of it is still due.
// Each statement takes one batch (SKIP LOCKED) and counts it into service.retention_progress. With
// ARCHIVE_DIR, what a batch takes is first appended to messages-/attempts-<day>.ndjson.gz (lib/db/archive/write-archive.ts).

export { SERVICE_PURGE };

const progress = (what: string) => progressCte('service', what);
const SLACK = ID_CLOCK_SLACK_SQL;

// Whose rows a step takes: every account without its own value of `column` (`scope` null), or one account ($n).
const scoped = (alias: string, column: string, n: number | null) =>
  n === null
    ? `not exists (select 1 from service.account_retention o where o.account_id = ${alias}.account_id and o.${column} is not null)`
    : `${alias}.account_id = $${n}::uuid`;

// $1 (and $2, the hold's) a time, not now() less a duration: a time less an interval is STABLE, so a batch planned every
// partition (then removed those past the cutoff as it ran): a payload purge's batch beside ingest took 82 ms to plan at
// 35 daily partitions. The time is this process's clock, the store's on the machines we run on.
const before = (ms: number) => new Date(Date.now() - ms).toISOString();

const duePayloads = (n: number | null) => `m.payload_purged_at is null and m.created_at < $1::timestamptz
       and ${scoped('m', 'message_payload_retention_ms', n)}
       and not (m.created_at > $2::timestamptz
                and exists (select 1 from service.deliveries d where d.message_id = m.id and d.created_at = m.created_at and d.status <> 'success'))`;
const dueResponses = (n: number | null) => `a.response_purged_at is null and a.created_at < $1::timestamptz
       and ${scoped('a', 'message_payload_retention_ms', n)}
       and not (a.created_at > $2::timestamptz
                and exists (select 1 from service.deliveries d where d.id = a.delivery_id and d.created_at <= a.created_at + ${SLACK} and d.status <> 'success'))`;
const dueMessages = (n: number | null) => `m.created_at < $1::timestamptz
       and ${scoped('m', 'message_retention_ms', n)}
       and not exists (select 1 from service.deliveries d where d.message_id = m.id and d.created_at = m.created_at and d.status in ('pending', 'sending'))`;

/** The purge of the messages `batch` names; `$retention` is MESSAGE_PAYLOAD_RETENTION as written (`90d`). */
const payloads = (batch: string, retention: string) => `
  with batch as (${batch}),
  done as (
    update service.messages m
       set payload = json_build_object('purged', json_build_object(
             'at', now(), 'retention', ${retention}::text, 'size', octet_length(m.payload),
             'sha256', encode(sha256(convert_to(m.payload, 'UTF8')), 'hex')))::text,
           payload_json = 'null'::jsonb, -- no longer searchable (lib/db/search-json.ts)
           payload_purged_at = now()
      from batch where m.id = batch.id and m.created_at = batch.created_at returning m.created_at as at),
  ${progressCte('service', 'message_payloads', { cursor: true })}`;

const responses = (batch: string) => `
  with batch as (${batch}),
  done as (
    update service.attempts a
       set response = '', response_size = octet_length(a.response),
           response_sha256 = encode(sha256(convert_to(a.response, 'UTF8')), 'hex'), response_purged_at = now()
      from batch where a.id = batch.id and a.created_at = batch.created_at returning a.created_at as at),
  ${progressCte('service', 'attempt_responses', { cursor: true })}`;

// Deletes in one statement, so no delivery or attempt outlives its message (they have no foreign keys: 0039, 0045). A
// batch names its messages by (id, created_at), the key of the messages and of their deliveries' partitions; their
// attempts are of that time or later (less the slack of a worker's clock), which spares the probe of every older
// attempts partition.
const messages = (batch: string) => `
  with batch as (${batch}),
  gone_attempts as (
    delete from service.attempts a using service.deliveries d, batch
     where d.message_id = batch.id and d.created_at = batch.created_at and a.webhook_id = d.webhook_id and a.message_id = d.message_id
       and a.created_at >= batch.created_at - ${SLACK} returning 1),
  gone_deliveries as (
    delete from service.deliveries d using batch where d.message_id = batch.id and d.created_at = batch.created_at returning 1),
  done as (
    delete from service.messages m using batch where m.id = batch.id and m.created_at = batch.created_at returning 1),
  ${progress('messages')}`;

// Each statement twice: [the default's, one account's] (its id the last parameter).
const PAYLOADS = [null, 5].map((n) =>
  payloads(
    `select m.id, m.created_at from service.messages m where ${duePayloads(n)} and ${fromCursor('m.created_at', n ? 6 : 5)}
      order by m.created_at limit $3 for update skip locked`,
    '$4',
  ),
);
const RESPONSES = [null, 4].map((n) =>
  responses(
    `select a.id, a.created_at from service.attempts a where ${dueResponses(n)} and ${fromCursor('a.created_at', n ? 5 : 4)}
      order by a.created_at limit $3 for update skip locked`,
  ),
);
const MESSAGES = [null, 3].map((n) =>
  messages(`select m.id, m.created_at from service.messages m where ${dueMessages(n)} order by m.created_at limit $2 for update skip locked`),
);

// With ARCHIVE_DIR: a batch is read with what it holds, archived (lib/db/archive/write-archive.ts), then purged by its ids.
const MESSAGE_COLUMNS = `m.id, m.account_id as "accountId", m.event_type as "eventType", m.created_at as "createdAt", m.payload,
  encode(sha256(convert_to(m.payload, 'UTF8')), 'hex') as sha256`;
const ATTEMPT_COLUMNS = `a.id, a.account_id as "accountId", a.message_id as "messageId", a.webhook_id as "webhookId", a.created_at as "createdAt",
  a.response_status_code as "responseStatusCode", a.response, encode(sha256(convert_to(a.response, 'UTF8')), 'hex') as sha256`;
const SELECT_PAYLOADS = [null, 4].map(
  (n) =>
    `select ${MESSAGE_COLUMNS} from service.messages m where ${duePayloads(n)} and ${fromCursor('m.created_at', n ? 5 : 4)} order by m.created_at limit $3`,
);
// An attempt's delivery was made before it (an attempt is written for a delivery its writer holds), give or take the
// worker's clock against the store's (an attempt's time is its worker's: the ids' hour of slack, lib/ids.ts): `d.created_at
// <= a.created_at + SLACK` lets each probe skip, at run time, every deliveries partition after that. Without it the hold's
// check hashed a scan of every unsettled delivery of every partition, in each batch: a year's 30 days at 73k deliveries a
// day read 48k buffers and took 669 ms a batch (18 ms with it; the 2.2M-delivery store of the bench's year at full size).
export const SELECT_RESPONSES = [null, 4].map(
  (n) =>
    `select ${ATTEMPT_COLUMNS} from service.attempts a where ${dueResponses(n)} and ${fromCursor('a.created_at', n ? 5 : 4)} order by a.created_at limit $3`,
);
const SELECT_MESSAGES = [null, 3].map(
  (n) => `select ${MESSAGE_COLUMNS}, m.payload_purged_at is not null as gone from service.messages m where ${dueMessages(n)} order by m.created_at limit $2`,
);
// Archived batches are purged by their keys, (id, created_at): each statement reads the partitions of their times. The
// answers a message's deletion takes with it that were not purged before: of its time or later ($2, the batch's oldest).
const SELECT_ANSWERS_OF = `select ${ATTEMPT_COLUMNS} from service.attempts a
  where a.message_id = any($1::text[]) and a.created_at >= $2::timestamptz - ${SLACK} and a.response_purged_at is null`;
const PAYLOADS_OF = payloads(
  'select m.id, m.created_at from service.messages m where m.id = any($1::text[]) and m.created_at = any($3::timestamptz[]) and m.payload_purged_at is null for update skip locked',
  '$2',
);
const RESPONSES_OF = responses(
  'select a.id, a.created_at from service.attempts a where a.id = any($1::text[]) and a.created_at = any($2::timestamptz[]) and a.response_purged_at is null for update skip locked',
);
const MESSAGES_OF = messages(
  'select m.id, m.created_at from service.messages m where m.id = any($1::text[]) and m.created_at = any($2::timestamptz[]) for update skip locked',
);
/** A batch's keys, as the purge by keys takes them: [ids, created_ats]; none: [] (archivedStep: nothing to purge). */
const keysOf = (rows: TRow[]) => (rows.length ? [rows.map((r) => r.id), rows.map((r) => new Date(r.createdAt).toISOString())] : []);

type TRow = { id: string; createdAt: Date | string; gone?: boolean } & Record<string, unknown>;
const record = (kind: 'messages' | 'attempts', { gone: _gone, ...r }: TRow, purged: 'body' | 'row') => ({
  kind,
  record: { ...r, createdAt: new Date(r.createdAt).toISOString(), purged },
});

async function count(text: string, params: unknown[]): Promise<number> {
  const [row] = await driverRows<{ n: number }>(text, params);
  return row?.n ?? 0;
}

/** One kind's steps for the default (`accountId` null) or one account, with its retention in ms. */
function payloadSteps(payload: number, hold: number, accountId: string | null): TPurgeStep[] {
  const v = accountId === null ? 0 : 1;
  const scope = accountId === null ? [] : [accountId];
  const text = formatDuration(payload);
  // Each kind's cursor in the pass (purge-cursor.ts), the default's and each account's apart.
  const [payloadsAt, responsesAt] = [`message_payloads:${accountId ?? ''}`, `attempt_responses:${accountId ?? ''}`];
  return [
    archivedStep(
      'message_payloads',
      (limit, pass) => countAdvancing(pass, payloadsAt, PAYLOADS[v], [before(payload), before(hold), limit, text, ...scope, cursorOf(pass, payloadsAt)]),
      async (limit, pass) => {
        const due = await driverRows<TRow>(SELECT_PAYLOADS[v], [before(payload), before(hold), limit, ...scope, cursorOf(pass, payloadsAt)]);
        advanceCursor(pass, payloadsAt, newestOf(due.map((d) => d.createdAt)));
        return { ids: keysOf(due), records: due.map((d) => record('messages', d, 'body')) };
      },
      ([ids, createdAts]) => count(PAYLOADS_OF, [ids, text, createdAts]),
    ),
    archivedStep(
      'attempt_responses',
      (limit, pass) => countAdvancing(pass, responsesAt, RESPONSES[v], [before(payload), before(hold), limit, ...scope, cursorOf(pass, responsesAt)]),
      async (limit, pass) => {
        const due = await driverRows<TRow>(SELECT_RESPONSES[v], [before(payload), before(hold), limit, ...scope, cursorOf(pass, responsesAt)]);
        advanceCursor(pass, responsesAt, newestOf(due.map((d) => d.createdAt)));
        return { ids: keysOf(due), records: due.map((d) => record('attempts', d, 'body')) };
      },
      (keys) => count(RESPONSES_OF, keys),
    ),
  ];
}

function messageStep(rows: number, accountId: string | null): TPurgeStep {
  const v = accountId === null ? 0 : 1;
  const scope = accountId === null ? [] : [accountId];
  return archivedStep(
    'messages',
    (limit) => count(MESSAGES[v], [before(rows), limit, ...scope]),
    async (limit) => {
      // A message whose payload (or answer) went before was archived then; what it still holds is archived now.
      const due = await driverRows<TRow>(SELECT_MESSAGES[v], [before(rows), limit, ...scope]);
      const keys = keysOf(due);
      const answers = keys.length ? await driverRows<TRow>(SELECT_ANSWERS_OF, [keys[0], keys[1].reduce((a, b) => (a < b ? a : b))]) : [];
      return {
        ids: keys,
        records: [...due.filter((d) => !d.gone).map((d) => record('messages', d, 'row')), ...answers.map((a) => record('attempts', a, 'row'))],
      };
    },
    (keys) => count(MESSAGES_OF, keys),
  );
}

// The overrides the last tick read: the interval between passes follows the shortest retention in use.
let overrides: TRetentionOverride[] = [];

/** A tick's steps: attempts' and deliveries' partitions, payloads and answers, then rows; each by the default, then per overriding account. */
export async function servicePurgeSteps(): Promise<TPurgeStep[]> {
  overrides = await retentionOverrides();
  const hold = env.RETENTION_HOLD_MAX;
  const [own, ownRows] = [overrides.filter((o) => o.payloadMs !== null), overrides.filter((o) => o.rowsMs !== null)];
  const bodies = [payloadSteps(env.MESSAGE_PAYLOAD_RETENTION, hold, null), ...own.map((o) => payloadSteps(o.payloadMs!, hold, o.accountId))];
  // A message's rows wait for its attempts' partition to go whole (drop-attempts.ts: to the start of the cutoff's interval).
  const interval = partitionInterval(await dbKind());
  return [
    attemptPartitionsStep(env.MESSAGE_RETENTION, overrides),
    deliveryPartitionsStep(env.MESSAGE_RETENTION, overrides),
    messagePartitionsStep(env.MESSAGE_RETENTION, overrides),
    ...bodies.map((b) => b[0]),
    ...bodies.map((b) => b[1]),
    messageStep(alignedRetentionMs(env.MESSAGE_RETENTION, interval), null),
    ...ownRows.map((o) => messageStep(alignedRetentionMs(o.rowsMs!, interval), o.accountId)),
    idempotencyKeysStep(),
  ];
}

async function onPass(event: 'start' | 'end', purged: number): Promise<void> {
  if (event === 'start') await repairArchive(['messages', 'attempts']);
  else await sealArchive(['messages', 'attempts']);
  const column = event === 'start' ? 'pass_started_at' : 'pass_ended_at';
  await driverRows(
    `insert into service.retention_progress as p (what, ${column}) values ('pass', now())
     on conflict (what) do update set ${column} = now()`,
    [],
  );
  // PGlite has no autovacuum: the space a pass freed comes back now (and the planner learns what is left), not at the next minute's upkeep.
  if (event === 'end' && purged > 0) await vacuumTables(['service.messages', 'service.attempts', 'service.deliveries', 'service.idempotency_keys']);
}

// The store's upkeep of the service's tables (lib/db/upkeep), started and stopped with the purge, in the same processes.
// service.attempts, service.deliveries and service.messages are partitioned by created_at (migrations 0037, 0039, 0040); their
// partitions are made ahead here.
const SERVICE_UPKEEP: TUpkeepSpec = {
  name: 'upkeep-service',
  schema: 'service',
  partitioned: [
    { table: MESSAGES_TABLE, lease: MESSAGES_LEASE },
    { table: DELIVERIES_TABLE, lease: DELIVERIES_LEASE },
    { table: ATTEMPTS_TABLE, lease: ATTEMPTS_LEASE },
  ],
};

/**
 * service.messages', service.deliveries' and service.attempts' partitions made ahead, at a start before the process writes them (ingest, its worker, a resend). A failure
 * (a lock not had within its second) does not stop the start: the partitions reach a week ahead, and the minute's upkeep tries again.
 */
export async function ensureServicePartitions(): Promise<void> {
  await ensureUpkeepPartitions(SERVICE_UPKEEP).catch((err: Error) =>
    console.warn(`the service's partitions not made at start (tried again each minute): ${err.message}`),
  );
}

export function startServicePurge(): void {
  startPurgeLoop({
    lease: SERVICE_PURGE,
    steps: servicePurgeSteps,
    idleMs: () =>
      purgeIdleMs(env.MESSAGE_PAYLOAD_RETENTION, env.MESSAGE_RETENTION, ...overrides.flatMap((o) => [o.payloadMs ?? Infinity, o.rowsMs ?? Infinity])),
    onPass,
  });
  startUpkeep(SERVICE_UPKEEP);
}

export const stopServicePurge = () => Promise.all([stopPurgeLoop(SERVICE_PURGE), stopUpkeep(SERVICE_UPKEEP)]);
