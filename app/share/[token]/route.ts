// GET /share/{token}: a shared case, read-only, without a login (lib/console/share/); 410 once the link expired or was revoked.
import { sharedCasePage, SHARE_HEADERS } from '@/lib/console/share/shared-case-page';
import { route, otherMethods } from '@/lib/http/respond';
import { sourceAddress } from '@/lib/http/source-address';

export const dynamic = 'force-dynamic';

export const GET = route<{ token: string }>(async ({ req, params }) => {
  const { status, html } = await sharedCasePage(params.token, sourceAddress(req.headers.get('x-forwarded-for')));
  return new Response(html, { status, headers: SHARE_HEADERS });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
