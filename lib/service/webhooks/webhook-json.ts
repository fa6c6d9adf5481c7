import type { TEventType, TMessageStatus } from '@/lib/constants';
import type { schema } from '@/lib/db/client';

export type TWebhookRow = typeof schema.webhooks.$inferSelect;
export type TDeliveryRow = typeof schema.deliveries.$inferSelect;
export type TAttemptRow = typeof schema.attempts.$inferSelect;

export type TWebhookJson = {
  id: string;
  url: string;
  eventTypes: TEventType[];
  description: string;
  disabled: boolean;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
};

export type TMessageJson = {
  id: string;
  eventType: TEventType;
  timestamp: string;
  status: TMessageStatus;
  nextAttempt: string | null;
  attemptCount: number;
  payload?: unknown;
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
};

export function webhookToJson(row: TWebhookRow): TWebhookJson {
  return {
    id: row.id,
    url: row.url,
    eventTypes: row.eventTypes as TEventType[],
    description: row.description,
    disabled: row.disabled,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type TMessageFields = Pick<TDeliveryRow, 'messageId' | 'eventType' | 'createdAt' | 'status' | 'nextAttemptAt' | 'attemptCount'>;

/** A message as one webhook sees it: its delivery's status; with `payload` for Get message. */
export function messageToJson(row: TMessageFields, payload?: string): TMessageJson {
  return {
    id: row.messageId,
    eventType: row.eventType as TEventType,
    timestamp: row.createdAt.toISOString(),
    status: row.status as TMessageStatus,
    // Only a waiting message has a next attempt; one being sent has its attempt under way.
    nextAttempt: row.status === 'pending' && row.nextAttemptAt ? row.nextAttemptAt.toISOString() : null,
    attemptCount: row.attemptCount,
    ...(payload !== undefined ? { payload: JSON.parse(payload) as unknown } : {}),
  };
}

export function attemptToJson(row: TAttemptRow, { withResponse = false } = {}): TAttemptJson {
  return {
    id: row.id,
    url: row.url,
    timestamp: row.createdAt.toISOString(),
    status: row.status as TAttemptJson['status'],
    responseStatusCode: row.responseStatusCode,
    responseDurationMs: row.responseDurationMs,
    triggerType: row.triggerType as TAttemptJson['triggerType'],
    ...(withResponse ? { response: row.response } : {}),
  };
}
