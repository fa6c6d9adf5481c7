import type { TEventType } from '@/lib/constants';
import { grantToJson, type TGrantRow } from '@/lib/service/grants/grant-json';
import { operationalPayload, type TCause } from './emit-operational-event';
import { EXAMPLE_FAILING } from './failing-event';

// The documented example `data` of each event type, sent by POST /v1/webhooks/{id}/test.
// Fixed values, so a receiver can recognise a test; the shape is exactly the real event's.

const EXAMPLE_GRANT: TGrantRow = {
  id: '3f5e8c1a-9b2d-4e7f-8a6c-1d2e3f4a5b6c',
  accountId: '00000000-0000-4000-8000-000000000000',
  connectId: 'test_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  nonprofitId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  trackingId: 'GC-7KQ2M9',
  workflowSessionId: 'wfs_2Q3sXQ5mHk1bW8nJ3cR7tYvLd0A',
  amount: 15000,
  feeAmount: 435,
  coveredFees: false,
  status: 'Initiated',
  fundId: 'fidelity-charitable',
  fundName: 'Fidelity Charitable',
  firstName: 'Jane',
  lastName: 'Donor',
  email: 'jane.donor@example.org',
  phone: '5555550123',
  note: 'This is a test event.',
  metadata: { test: 'true' },
  createdAt: new Date('2026-11-22T10:15:30.123Z'),
  updatedAt: new Date('2026-11-22T10:15:30.123Z'),
  erasedAt: null,
};

const EXAMPLE_WEBHOOK = {
  id: 'ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  accountId: EXAMPLE_GRANT.accountId,
  url: 'https://example.org/webhooks/giving-connect',
  failingSince: new Date('2026-11-22T10:15:35.000Z'),
};

const EXAMPLE_CAUSE: TCause = {
  messageId: 'msg_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  eventType: 'grant.succeeded',
  attemptCount: 8,
  attemptId: 'atmpt_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE',
  attemptedAt: new Date('2026-11-24T02:40:12.345Z'),
  responseStatusCode: 503,
  response: 'Service Unavailable',
};

export function examplePayload(eventType: TEventType): unknown {
  switch (eventType) {
    case 'grant.succeeded':
      return grantToJson(EXAMPLE_GRANT);
    case 'webhook.failing':
      return EXAMPLE_FAILING;
    case 'message.attempt.exhausted':
      return operationalPayload({ type: eventType, webhook: EXAMPLE_WEBHOOK, cause: EXAMPLE_CAUSE });
    case 'webhook.disabled':
      return operationalPayload({
        type: eventType,
        webhook: EXAMPLE_WEBHOOK,
        reason: 'the endpoint answered 410 Gone',
        disabledAt: EXAMPLE_CAUSE.attemptedAt,
        cause: { ...EXAMPLE_CAUSE, responseStatusCode: 410, response: 'Gone' },
      });
    case 'webhook.recovered':
      return operationalPayload({
        type: eventType,
        webhook: EXAMPLE_WEBHOOK,
        recoveredAt: EXAMPLE_CAUSE.attemptedAt,
        cause: { ...EXAMPLE_CAUSE, attemptCount: 3, responseStatusCode: 200, response: 'ok' },
      });
  }
}
