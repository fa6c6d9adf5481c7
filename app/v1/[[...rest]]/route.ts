// Service: any /v1 path no other route serves is a problem-details 404.
import { ApiError } from '@/lib/http/errors';
import { route } from '@/lib/http/respond';

const notFound = route(async ({ req }) => {
  throw new ApiError('not_found', `No operation at ${req.method} ${req.nextUrl.pathname}.`);
});

export { notFound as GET, notFound as HEAD, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
