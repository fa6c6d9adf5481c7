import { dbKind, driverRows } from '@/lib/db/client';
import { purgeIdleMs, startPurgeLoop, stopPurgeLoop, type TPurgeStep } from '@/lib/db/purge-loop';
import { formatDuration } from '@/lib/duration';
import { env } from '@/lib/env';

// The service's retention (MESSAGE_PAYLOAD_RETENTION, MESSAGE_RETENTION), in its own schema:
//   message_payloads   a message's payload becomes its tombstone {"purged":{at, retention, size, sha256}};
//   attempt_responses  an attempt's response body is emptied, its size and SHA-256 kept beside it;
//   messages           the message, its deliveries and their attempts go (the stats keep their rollups).
// The skeleton stays: ids, event type, tags, deliveries and their status, attempts' status codes,
// durations and times. The hold: a message with a delivery not (yet) successful — pending, sending,
// or failed (what the problems view shows) — keeps its payload and its attempts' bodies until it is
// resolved, or RETENTION_HOLD_MAX has passed. No row is deleted while a delivery of it is still due.
// Each statement takes one batch (SKIP LOCKED) and counts it into service.retention_progress.

export const SERVICE_PURGE = 'retention-service';

const progress = (what: string) => `
  progress as (
    insert into service.retention_progress as p (what, purged, last_purge_at)
    select '${what}', count(*), now() from done having count(*) > 0
    on conflict (what) do update set purged = p.purged + excluded.purged, last_purge_at = excluded.last_purge_at
    returning 1)
  select count(*)::int as n from done`;

const PAYLOADS = `
  with batch as (
    select m.id from service.messages m
     where m.payload_purged_at is null and m.created_at < now() - $1::bigint * interval '1 millisecond'
       and not (m.created_at > now() - $2::bigint * interval '1 millisecond'
                and exists (select 1 from service.deliveries d where d.message_id = m.id and d.status <> 'success'))
     order by m.created_at limit $3 for update skip locked),
  done as (
    update service.messages m
       set payload = json_build_object('purged', json_build_object(
             'at', now(), 'retention', $4::text, 'size', octet_length(m.payload),
             'sha256', encode(sha256(convert_to(m.payload, 'UTF8')), 'hex')))::text,
           payload_purged_at = now()
      from batch where m.id = batch.id returning 1),
  ${progress('message_payloads')}`;

const RESPONSES = `
  with batch as (
    select a.id from service.attempts a
     where a.response_purged_at is null and a.created_at < now() - $1::bigint * interval '1 millisecond'
       and not (a.created_at > now() - $2::bigint * interval '1 millisecond'
                and exists (select 1 from service.deliveries d where d.id = a.delivery_id and d.status <> 'success'))
     order by a.created_at limit $3 for update skip locked),
  done as (
    update service.attempts a
       set response = '', response_size = octet_length(a.response),
           response_sha256 = encode(sha256(convert_to(a.response, 'UTF8')), 'hex'), response_purged_at = now()
      from batch where a.id = batch.id returning 1),
  ${progress('attempt_responses')}`;

// Deletes in one statement: the foreign keys are checked at its end, when all three are gone.
const MESSAGES = `
  with batch as (
    select m.id from service.messages m
     where m.created_at < now() - $1::bigint * interval '1 millisecond'
       and not exists (select 1 from service.deliveries d where d.message_id = m.id and d.status in ('pending', 'sending'))
     order by m.created_at limit $2 for update skip locked),
  gone_attempts as (
    delete from service.attempts a using service.deliveries d, batch
     where d.message_id = batch.id and a.webhook_id = d.webhook_id and a.message_id = d.message_id returning 1),
  gone_deliveries as (
    delete from service.deliveries d using batch where d.message_id = batch.id returning 1),
  done as (
    delete from service.messages m using batch where m.id = batch.id returning 1),
  ${progress('messages')}`;

async function count(text: string, params: unknown[]): Promise<number> {
  const [row] = await driverRows<{ n: number }>(text, params);
  return row?.n ?? 0;
}

export function servicePurgeSteps(): TPurgeStep[] {
  const payload = env.MESSAGE_PAYLOAD_RETENTION;
  const hold = env.RETENTION_HOLD_MAX;
  return [
    { what: 'message_payloads', run: (limit) => count(PAYLOADS, [payload, hold, limit, formatDuration(payload)]) },
    { what: 'attempt_responses', run: (limit) => count(RESPONSES, [payload, hold, limit]) },
    { what: 'messages', run: (limit) => count(MESSAGES, [env.MESSAGE_RETENTION, limit]) },
  ];
}

async function onPass(event: 'start' | 'end', purged: number): Promise<void> {
  const column = event === 'start' ? 'pass_started_at' : 'pass_ended_at';
  await driverRows(
    `insert into service.retention_progress as p (what, ${column}) values ('pass', now())
     on conflict (what) do update set ${column} = now()`,
    [],
  );
  // PGlite has no autovacuum: the space of a pass comes back here.
  if (event === 'end' && purged > 0 && (await dbKind()) === 'pglite') {
    await driverRows('vacuum service.messages, service.attempts, service.deliveries', []);
  }
}

export function startServicePurge(): void {
  startPurgeLoop({
    name: SERVICE_PURGE,
    steps: servicePurgeSteps,
    idleMs: () => purgeIdleMs(env.MESSAGE_PAYLOAD_RETENTION, env.MESSAGE_RETENTION),
    onPass,
  });
}

export const stopServicePurge = () => stopPurgeLoop(SERVICE_PURGE);
