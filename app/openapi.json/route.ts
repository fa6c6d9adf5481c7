// Service: EXT GET /openapi.json — the API as an OpenAPI 3.1 document, generated from the route schemas.
import { env } from '@/lib/env';
import { openApiDocument } from '@/lib/service/openapi-document';
import { json, otherMethods, route } from '@/lib/http/respond';

export const GET = route(async () => json(openApiDocument(env.PUBLIC_URL, env.CONNECT_AUDIENCE), { headers: { 'access-control-allow-origin': '*' } }));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(['GET']);
