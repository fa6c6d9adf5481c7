// Service: EXT GET /v1/grants/{id} — one grant of the Connect whose API key is sent (the Location of a create).
import { json, otherMethods } from '@/lib/http/respond';
import { getGrant } from '@/lib/service/grants/find-grant';
import { withApiKey } from '@/lib/service/grants/with-api-key';

export const GET = withApiKey<{ id: string }>(async ({ params, connect }) => json(await getGrant(connect.id, params.id)), { scope: 'read:grants' });

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
