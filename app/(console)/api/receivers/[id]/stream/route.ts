// Console: GET /api/receivers/{id or slug}/stream?after=<receipt id> — the receiver's receipts as
// Server-Sent Events (backlog after the cursor in order, then live on commit; what `npm run listen`
// follows). A personal access token (Authorization: Bearer) or the staff session; operators and admins.
import { env } from '@/lib/env';
import { ApiError } from '@/lib/http/errors';
import { otherMethods } from '@/lib/http/respond';
import { startCursor } from '@/lib/console/listen/read-settled';
import { receiptStream } from '@/lib/console/listen/receipt-stream';
import { assertAcceptsEventStream, streamAfter } from '@/lib/console/listen/stream-request';
import { getReceiver } from '@/lib/console/receivers';
import { withStaffOrToken } from '@/lib/console/staff/with-staff-or-token';

export const dynamic = 'force-dynamic';

export const GET = withStaffOrToken<{ id: string }>({ role: 'operator' }, async ({ req, params, stillAllowed }) => {
  assertAcceptsEventStream(req.headers.get('accept'));
  const after = streamAfter(req.nextUrl.searchParams, req.headers.get('last-event-id'));
  const receiver = await getReceiver(params.id);
  if (!receiver) throw new ApiError('not_found', `No receiver has the id or slug "${params.id.slice(0, 100)}".`);
  const cursor = await startCursor(receiver.id, after);
  const readyId = after ?? Math.max(cursor.id, cursor.minId);
  const stream = receiptStream({
    receiver: { id: receiver.id, slug: receiver.slug, name: receiver.name },
    cursor,
    readyId,
    stillAllowed,
    heartbeatMs: env.RECEIPT_STREAM_HEARTBEAT_MS,
  });
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store, no-transform', 'x-accel-buffering': 'no' },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
