// Service: POST /v1/webhooks/{id}/test — queue the example event for this webhook alone; 200 with the message.
import { readJson } from '@/lib/http/body';
import { json, otherMethods } from '@/lib/http/respond';
import { withAccount } from '@/lib/service/auth/with-account';
import { ZTestEvent } from '@/lib/service/webhooks/schemas';
import { sendTestEvent } from '@/lib/service/events/send-test-event';

export const POST = withAccount<{ id: string }>(async ({ req, params, account }) => {
  const { eventType } = await readJson(req, ZTestEvent, { optional: true });
  return json(await sendTestEvent(account.accountId, params.id, eventType));
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['POST']);
