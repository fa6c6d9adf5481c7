// Console: any /api path no other route serves (/api itself, and a dot-segment that resolves to it) is a problem-details 404, not Next's HTML page, for every method.
import { ApiError } from '@/lib/http/errors';
import { route } from '@/lib/http/respond';

const notFound = route(async ({ req }) => {
  throw new ApiError('not_found', `No console API at ${req.method} ${req.nextUrl.pathname}.`);
});

export { notFound as GET, notFound as HEAD, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
