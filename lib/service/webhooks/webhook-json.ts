import { STOP_REASONS, type TEventType, type TMessageStatus } from '@/lib/constants';
import type * as schema from '@/lib/db/schema/service';
import { formatDuration } from '@/lib/duration';
import { env } from '@/lib/env';

export type TWebhookRow = typeof schema.webhooks.$inferSelect;
export type TDeliveryRow = typeof schema.deliveries.$inferSelect;
export type TAttemptRow = typeof schema.attempts.$inferSelect;

export type TWebhookJson = {
  id: string;
  url: string;
  eventTypes: TEventType[];
  description: string;
  disabled: boolean;
  /** EXT: why and when the webhook was disabled; null while enabled. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** EXT: the start of the current failing stretch (kept while disabled: the stretch that disabled it); null when not failing. */
  failingSince: string | null;
  /** EXT: when the stretch reaches DELIVERY_DISABLE_AFTER_MS (the first failure from then disables it); null when not failing, disabled, or paused. */
  disablesAt: string | null;
  /** EXT: paused (PATCH `paused`): its deliveries queue and none is sent; its failing stretch's clock stands still. Always sent (optional in the document: a service without pause leaves it out). */
  paused?: boolean;
  /** EXT: since when it is paused; null when not. */
  pausedAt: string | null;
  /** EXT: its cap in deliveries per second, across every worker; null: none. */
  rateLimit: number | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

/** A message as one webhook sees it (eventId, tags and lastAttempt are EXT). */
export type TMessageJson = {
  id: string;
  eventId: string;
  eventType: TEventType;
  timestamp: string;
  tags: string[];
  status: TMessageStatus;
  nextAttempt: string | null;
  attemptCount: number;
  /** The newest attempt to this webhook, without its response body; null before the first. */
  lastAttempt: TAttemptJson | null;
  /** EXT: set when this delivery's retries were stopped before its schedule ran out, and why. */
  retriesStopped: TRetriesStopped | null;
  /** EXT: the recover or replay-missing run that last queued this delivery; null otherwise. */
  recoverRunId: string | null;
  payload?: unknown;
  /** EXT, with `withAttempts=true` on a list: every attempt, oldest first, without response bodies. */
  attempts?: TAttemptJson[];
};

/** EXT: a message of the account, whichever webhooks it was queued for. */
export type TAccountMessageJson = {
  id: string;
  eventId: string;
  eventType: TEventType;
  timestamp: string;
  tags: string[];
  /** With a payload filter: the part of the payload around the match. */
  excerpt?: string;
  /** With `withWebhooks=true`: the webhooks the message was queued for (none when nothing was subscribed). */
  webhookIds?: string[];
};

/** EXT: one webhook's delivery of an account message. */
export type TMessageDeliveryJson = {
  webhookId: string;
  status: TMessageStatus;
  nextAttempt: string | null;
  attemptCount: number;
  lastAttempt: TAttemptJson | null;
  retriesStopped: TRetriesStopped | null;
  /** EXT: the recover or replay-missing run that last queued this delivery (GET …/recover/{id} or …/replay-missing/{id}); null otherwise. */
  recoverRunId: string | null;
};

/**
 * EXT: why a delivery ended `failed` with retries left, and when: `donor_erased` — a donor erasure
 * (POST /v1/erasures) replaced the payload it would send; `payload_purged` — retention purged it.
 */
export type TRetriesStopped = { reason: (typeof STOP_REASONS)[number]; at: string };

function retriesStoppedOf(row: Pick<TDeliveryRow, 'stopReason' | 'stoppedAt'>): TRetriesStopped | null {
  if (!row.stopReason || !(STOP_REASONS as readonly string[]).includes(row.stopReason)) return null;
  return { reason: row.stopReason as TRetriesStopped['reason'], at: (row.stoppedAt ?? new Date(0)).toISOString() };
}

/** EXT: GET /v1/messages/{id} — the message with its payload and every delivery (none when nothing was subscribed). */
export type TAccountMessageDetailJson = TAccountMessageJson & {
  payload: unknown;
  /** With `withAttempts=true`: each with `attempts` (no bodies) and its `lastAttempt` with its response. */
  deliveries: (TMessageDeliveryJson & { attempts?: TAttemptJson[] })[];
};

export type TAttemptJson = {
  id: string;
  url: string;
  timestamp: string;
  status: 'success' | 'failed';
  responseStatusCode: number;
  responseDurationMs: number;
  triggerType: 'scheduled' | 'manual';
  response?: string;
  /** EXT, with `response`: set when retention emptied the response body, or a donor erasure did (`reason`). */
  responsePurged?: { at: string; retention: string; size: number; sha256: string; reason: 'retention' | 'erasure' } | null;
};

export function webhookToJson(row: TWebhookRow): TWebhookJson {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes as TEventType[],
    description: row.description,
    disabled: row.disabled,
    disabledReason: row.disabledReason ?? null,
    disabledAt: row.disabledAt ? row.disabledAt.toISOString() : null,
    failingSince: row.failingSince ? row.failingSince.toISOString() : null,
    disablesAt: row.failingSince && !row.disabled && !row.pausedAt ? new Date(row.failingSince.getTime() + env.DELIVERY_DISABLE_AFTER_MS).toISOString() : null,
    paused: row.pausedAt !== null,
    pausedAt: row.pausedAt ? row.pausedAt.toISOString() : null,
    rateLimit: row.rateLimit ?? null,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type TDeliveryFields = Pick<TDeliveryRow, 'status' | 'nextAttemptAt' | 'attemptCount'>;

/** Only a waiting message has a next attempt; one being sent has its attempt under way. */
function nextAttemptOf(row: TDeliveryFields): string | null {
  return row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null;
}

/** A delivery with its message's fields and its newest attempt (see select-deliveries.ts). */
export type TDeliveryView = {
  delivery: TDeliveryRow;
  eventId: string;
  tags: string[];
  lastAttempt: TAttemptSummaryRow | null;
};

/** This webhook's delivery of a message: its status, schedule and newest attempt. */
export function deliveryToJson(view: TDeliveryView): TMessageDeliveryJson {
  const row = view.delivery;
  return {
    webhookId: row.webhookId,
    status: row.status as TMessageStatus,
    nextAttempt: nextAttemptOf(row),
    attemptCount: row.attemptCount,
    lastAttempt: view.lastAttempt ? attemptToJson(view.lastAttempt) : null,
    retriesStopped: retriesStoppedOf(row),
    recoverRunId: row.recoverRunId ?? null,
  };
}

/** A message as one webhook sees it: the message with its delivery's state; with `payload` for Get message. */
export function messageToJson(view: TDeliveryView, payload?: string): TMessageJson {
  const row = view.delivery;
  const { webhookId: _webhookId, ...state } = deliveryToJson(view);
  return {
    id: row.messageId,
    eventId: view.eventId,
    eventType: row.eventType as TEventType,
    timestamp: row.createdAt.toISOString(),
    tags: view.tags,
    ...state,
    ...(payload !== undefined ? { payload: JSON.parse(payload) as unknown } : {}),
  };
}

type TMessageRow = typeof schema.messages.$inferSelect;

export function accountMessageToJson(row: Pick<TMessageRow, 'id' | 'eventId' | 'eventType' | 'createdAt' | 'tags'>): TAccountMessageJson {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as TEventType,
    timestamp: row.createdAt.toISOString(),
    tags: row.tags,
  };
}

/** An attempt row without its response body (what lists and lastAttempt carry). */
export type TAttemptSummaryRow = Omit<
  TAttemptRow,
  'response' | 'deliveryId' | 'messageId' | 'webhookId' | 'accountId' | 'rolledUp' | 'responsePurgedAt' | 'responseSize' | 'responseSha256' | 'responseErased'
> & { response?: string } & Partial<{ [K in 'responsePurgedAt' | 'responseSize' | 'responseSha256' | 'responseErased']: TAttemptRow[K] | null }>;

/** `payloadRetentionMs`: the account's payload retention (EXT /v1/retention), which a purged answer names. */
export function attemptToJson(row: TAttemptSummaryRow, { withResponse = false, payloadRetentionMs = env.MESSAGE_PAYLOAD_RETENTION } = {}): TAttemptJson {
  return {
    id: row.id,
    url: row.url,
    timestamp: row.createdAt.toISOString(),
    status: row.status as TAttemptJson['status'],
    responseStatusCode: row.responseStatusCode,
    responseDurationMs: row.responseDurationMs,
    triggerType: row.triggerType as TAttemptJson['triggerType'],
    ...(withResponse
      ? {
          response: row.response ?? '',
          responsePurged: row.responsePurgedAt
            ? {
                at: row.responsePurgedAt.toISOString(),
                retention: formatDuration(payloadRetentionMs),
                size: row.responseSize ?? 0,
                sha256: row.responseSha256 ?? '',
                reason: row.responseErased ? 'erasure' : 'retention',
              }
            : null,
        }
      : {}),
  };
}
