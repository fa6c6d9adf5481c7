import { op } from '@/lib/openapi/operation';
import { ZAccountRetention, ZRetentionPatch } from './schemas';

// EXT GET and PATCH /v1/retention in /openapi.json: an account's own retention (account-retention.ts), its schemas in schemas.ts.

const PURGE =
  'The purge keeps the skeleton: a payload becomes `{"purged": {at, retention, size, sha256}}`, an attempt\'s response body is emptied (`responsePurged`); ' +
  "after the message retention the message, its deliveries and attempts go. An unresolved delivery keeps its bodies (up to the deployment's hold).";

export const RETENTION_OPERATIONS = [
  op('GET /v1/retention', {
    id: 'getRetention',
    tag: 'Retention',
    summary: "This account's retention",
    ext: true,
    auth: 'bearer',
    response: ZAccountRetention,
    description: `How long the service keeps this account's message payloads and messages: the values in effect, the account's own, and the deployment's defaults. ${PURGE}`,
  }),
  op('PATCH /v1/retention', {
    id: 'updateRetention',
    idempotent: true,
    tag: 'Retention',
    summary: "Change this account's retention",
    ext: true,
    auth: 'bearer',
    body: ZRetentionPatch,
    response: ZAccountRetention,
    description:
      'Sets either value for this account (a field left out stays as it is; null returns it to the default); the purge applies it from its next pass. ' +
      `A bad duration, or payloads that would outlive their messages, is a 400 naming the field, and nothing changes. ${PURGE}`,
  }),
];
