import { readJson } from '@/lib/http/body';
import { json } from '@/lib/http/respond';
import { withApiKey } from '@/lib/service/auth/with-api-key';
import { createGrant } from './create-grant';
import { parseIdempotencyKey } from './idempotency-key';
import { ZCreateGrant } from './schemas';

/**
 * EXT POST /v1/grants — create a grant (Idempotency-Key; Location: /v1/grants/{id}). The route's
 * handler, served by Next (app/v1/grants/route.ts) and, for a plain request, by the API's fast
 * path ahead of Next (grant-fast-path.ts): the same function either way.
 */
export const postGrant = withApiKey(
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
