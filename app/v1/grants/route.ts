// Service: GET /v1/grants — a Connect's grants, paged; EXT POST /v1/grants — create one (Idempotency-Key; Location: /v1/grants/{id}).
import { readJson } from '@/lib/http/body';
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { createGrant } from '@/lib/service/grants/create-grant';
import { parseIdempotencyKey } from '@/lib/service/grants/idempotency-key';
import { listGrants } from '@/lib/service/grants/list-grants';
import { ZCreateGrant } from '@/lib/service/grants/schemas';
import { withApiKey } from '@/lib/service/auth/with-api-key';

export const GET = withApiKey(
  async ({ req, connect }) => json(await listGrants(connect.id, await pageParams(req.nextUrl.searchParams, pageScope.grants(connect.id)))),
  { scope: 'read:grants' },
);

export const POST = withApiKey(
  async ({ req, connect }) => {
    const idempotencyKey = parseIdempotencyKey(req.headers);
    const input = await readJson(req, ZCreateGrant);
    const { grant, replayed } = await createGrant({ ...input, connect }, { idempotencyKey });
    const headers: Record<string, string> = { location: `/v1/grants/${grant.id}` };
    if (replayed) headers['idempotent-replayed'] = 'true';
    return json(grant, { status: 201, headers });
  },
  { scope: 'create:grants' },
);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
