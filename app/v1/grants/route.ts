// Service: GET /v1/grants — a Connect's grants, paged; EXT POST /v1/grants — create one (Idempotency-Key; Location: /v1/grants/{id}).
import { pageParams, pageScope } from '@/lib/service/paging';
import { json, otherMethods } from '@/lib/http/respond';
import { listGrants } from '@/lib/service/grants/list-grants';
import { postGrant } from '@/lib/service/grants/post-grant';
import { withApiKey } from '@/lib/service/auth/with-api-key';

export const GET = withApiKey(
  async ({ req, connect }) => json(await listGrants(connect.id, await pageParams(req.nextUrl.searchParams, pageScope.grants(connect.id)))),
  { scope: 'read:grants' },
);

// Plain requests are served by the fast path ahead of Next (lib/service/grants/grant-fast-path.ts), with this same handler.
export const POST = postGrant;

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET', 'POST']);
