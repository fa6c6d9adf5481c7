import { randomUUID } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { sha256 } from '@/lib/crypto/secrets';
import { type DbOrTx } from '@/lib/db/client';
import * as schema from '@/lib/db/schema/service';
import { ApiError } from '@/lib/http/errors';
import { prefixedId, randomString } from '@/lib/ids';
import { ID_PREFIX } from '@/lib/constants';
import { donorNameTag } from '@/lib/donor-name';
import type { TConnectRow } from '@/lib/service/connects/connect-json';
import { emitEvent } from '@/lib/service/events/emit-event';
import { insertGrantWithEvent } from './insert-grant-event';
import { IDEMPOTENCY_WINDOW_MS, TRACKING_ID_ALPHABET, TRACKING_ID_LENGTH, TRACKING_ID_PREFIX, feeFor, findFund } from './constants';
import { grantToJson, type TGrantJson, type TGrantRow } from './grant-json';
import type { TCreateGrant } from './schemas';
import { wakingTransaction } from '@/lib/service/delivery/wake-workers';

export type TCreateGrantInput = TCreateGrant & { connect: Pick<TConnectRow, 'id' | 'accountId' | 'nonprofitId' | 'active'> };
export type TCreateGrantResult = { grant: TGrantJson; replayed: boolean };
/** idempotencyKey: replay the first grant made with it. workflowSessionId: the Connect-flow session creating it (else a new one). */
export type TCreateGrantOptions = { idempotencyKey?: string; workflowSessionId?: string };

const TRACKING_ID_TRIES = 8;

export function newTrackingId(): string {
  return `${TRACKING_ID_PREFIX}${randomString(TRACKING_ID_LENGTH, TRACKING_ID_ALPHABET)}`;
}

/** JSON with sorted keys, so two equal requests hash alike whatever their key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The grant's row as it will be stored, with its id and times chosen here (its event carries them). */
function grantRow(input: TCreateGrantInput, workflowSessionId: string): TGrantRow {
  const fund = findFund(input.fundId);
  if (!fund) throw new ApiError('bad_request', `Unknown fundId ${input.fundId}.`, { errors: [{ path: 'fundId', message: 'unknown fund' }] });
  const now = new Date();
  return {
    id: randomUUID(),
    accountId: input.connect.accountId,
    connectId: input.connect.id,
    nonprofitId: input.connect.nonprofitId,
    trackingId: newTrackingId(),
    workflowSessionId,
    amount: input.amount,
    feeAmount: feeFor(input.amount),
    coveredFees: input.coveredFees ?? false,
    status: 'Initiated',
    fundId: fund.id,
    fundName: fund.name,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone || null,
    note: input.note || null,
    metadata: input.metadata ?? {},
    createdAt: now,
    updatedAt: now,
    erasedAt: null,
  };
}

/** The grant and its event in one statement, in the caller's transaction: emitEvent with the grant's INSERT as its guard. */
async function insertInTransaction(tx: DbOrTx, row: TGrantRow, grant: TGrantJson): Promise<boolean> {
  const guard = tx.insert(schema.grants).values(row).onConflictDoNothing({ target: schema.grants.trackingId }).returning({ id: schema.grants.id }).getSQL();
  return (await emitEvent(tx, { accountId: row.accountId, eventType: 'grant.succeeded', payload: grant, tags: grantEventTags(grant), guard })) !== null;
}

/**
 * The grant row and its grant.succeeded event in one statement (both or neither): on its own, the
 * fixed statement of insert-grant-event.ts; in a transaction (`tx`), through emitEvent. Tracking
 * ids are short, so collisions are possible: a taken one writes nothing, and another is drawn.
 */
async function createGrantIn(tx: DbOrTx | null, input: TCreateGrantInput, workflowSessionId: string): Promise<TGrantJson> {
  const first = grantRow(input, workflowSessionId);
  for (let i = 0; i < TRACKING_ID_TRIES; i++) {
    const row = i === 0 ? first : { ...first, trackingId: newTrackingId() };
    const grant = grantToJson(row);
    const stored = tx
      ? await insertInTransaction(tx, row, grant)
      : await insertGrantWithEvent(row, {
          messageId: prefixedId(ID_PREFIX.message),
          eventId: prefixedId(ID_PREFIX.event),
          data: grant,
          tags: grantEventTags(grant),
        });
    if (stored) return grant;
  }
  throw new Error(`no free tracking id after ${TRACKING_ID_TRIES} tries`);
}

/**
 * Creates a grant for a Connect: the grant row and its grant.succeeded event, in one statement.
 * The one code path of POST /v1/grants and the donor Connect page.
 *
 * With an idempotency key, in one transaction: the first request claims (connect, key) inside the same transaction;
 * a concurrent twin blocks on that row until the first commits, then replays its stored body.
 * The same key with a different request is a 409. Keys older than 24 h are forgotten.
 */
export async function createGrant(input: TCreateGrantInput, opts: TCreateGrantOptions = {}): Promise<TCreateGrantResult> {
  if (!input.connect.active) throw new ApiError('forbidden', 'This Connect is inactive and cannot receive grants.');
  const { idempotencyKey } = opts;
  const workflowSessionId = opts.workflowSessionId ?? prefixedId(ID_PREFIX.workflowSession);
  if (idempotencyKey === undefined) return { grant: await createGrantIn(null, input, workflowSessionId), replayed: false };
  return wakingTransaction(async (tx) => {
    const { connect, ...request } = input;
    const requestHash = sha256(canonicalJson(request));
    const keyOf = and(eq(schema.idempotencyKeys.connectId, connect.id), eq(schema.idempotencyKeys.key, idempotencyKey));
    await tx.delete(schema.idempotencyKeys).where(and(keyOf, lt(schema.idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_WINDOW_MS))));
    const claimed = await tx
      .insert(schema.idempotencyKeys)
      .values({ connectId: connect.id, key: idempotencyKey, requestHash, statusCode: 0, body: {} })
      .onConflictDoNothing()
      .returning({ key: schema.idempotencyKeys.key });
    if (claimed.length === 0) {
      const [previous] = await tx.select().from(schema.idempotencyKeys).where(keyOf);
      if (!previous) throw new ApiError('conflict', 'A request with this Idempotency-Key is still in progress; retry shortly.');
      if (previous.requestHash !== requestHash) {
        throw new ApiError('conflict', 'This Idempotency-Key was already used with a different request; use a new key for a new grant.');
      }
      return { grant: previous.body as TGrantJson, replayed: true };
    }
    const grant = await createGrantIn(tx, input, workflowSessionId);
    await tx.update(schema.idempotencyKeys).set({ statusCode: 201, body: grant }).where(keyOf);
    return { grant, replayed: false };
  });
}

/**
 * What a grant's event is found by (GET /v1/messages?tag=…): the migration 0001 backfill mirrors
 * all but the donor's full name (`name:grace hopper`, lib/donor-name.ts), which grants made before
 * it do not carry.
 */
export function grantEventTags(grant: Pick<TGrantJson, 'id' | 'trackingId' | 'email' | 'connectId' | 'firstName' | 'lastName'>): string[] {
  const name = donorNameTag(`${grant.firstName} ${grant.lastName}`);
  return [`grant:${grant.id}`, `tracking:${grant.trackingId}`, `donor:${grant.email.toLowerCase()}`, `connect:${grant.connectId}`, ...(name ? [name] : [])];
}
