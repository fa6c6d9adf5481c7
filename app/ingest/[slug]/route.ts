// Receiver: stores every request to /ingest/{slug} (before answering), then answers as the receiver
// is set to. scripts/server.mjs serves these requests itself (lib/console/ingest/ingest-node.ts); this
// route is the same receiver for `next dev`.
import type { NextRequest } from 'next/server';
import { ingest } from '@/lib/console/ingest/ingest';
import { requestIdOf } from '@/lib/http/request-id';

export const dynamic = 'force-dynamic';

async function handler(req: NextRequest, ctx: { params: Promise<{ slug: string }> }): Promise<Response> {
  const answer = await ingest((await ctx.params).slug, {
    method: req.method,
    path: req.nextUrl.pathname,
    query: req.nextUrl.search.replace(/^\?/, ''),
    headers: [...req.headers.entries()],
    forwardedFor: req.headers.get('x-forwarded-for'),
    requestId: requestIdOf(req),
    body: req.body,
  });
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE, handler as HEAD, handler as OPTIONS };
