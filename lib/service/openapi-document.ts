import { z } from 'zod';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { SCOPES } from '@/lib/constants';
import { AUTH_OPERATIONS } from '@/lib/service/auth/openapi';
import { CONNECT_OPERATIONS } from '@/lib/service/connects/openapi';
import { ERASURE_OPERATIONS } from '@/lib/service/erasures/openapi';
import { GRANT_OPERATIONS } from '@/lib/service/grants/openapi';
import { MESSAGE_OPERATIONS } from '@/lib/service/messages/openapi';
import { RETENTION_OPERATIONS } from '@/lib/service/retention/openapi';
import { NONPROFIT_OPERATIONS } from '@/lib/service/nonprofits/openapi';
import { STATS_OPERATIONS } from '@/lib/service/stats/openapi';
import { eventWebhooks } from '@/lib/service/events/openapi';
import { WEBHOOK_OPERATIONS } from '@/lib/service/webhooks/openapi';
import { TROUBLED_OPERATIONS } from '@/lib/service/messages/troubled-openapi';
import { op, type TOperation } from '@/lib/openapi/operation';

// GET /openapi.json: the service's OpenAPI 3.1 document, generated from the zod schemas the routes
// validate requests with and shape responses by (zod-openapi, on zod 4's JSON Schema output).
// A new route adds one op(...) to its area's *_OPERATIONS list (lib/service/<area>/openapi.ts);
// a new area adds its list below. tests/unit/openapi-document.test.ts fails while a /v1 route of
// lib/http/route-table.json has no operation here.

const META_OPERATIONS = [
  op('GET /openapi.json', {
    id: 'getOpenApiDocument',
    tag: 'Meta',
    summary: 'This document',
    ext: true,
    auth: 'none',
    response: z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.1 document.' }),
  }),
];

export const OPERATIONS: TOperation[] = [
  ...AUTH_OPERATIONS,
  ...NONPROFIT_OPERATIONS,
  ...CONNECT_OPERATIONS,
  ...GRANT_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...STATS_OPERATIONS,
  ...TROUBLED_OPERATIONS,
  ...MESSAGE_OPERATIONS,
  ...ERASURE_OPERATIONS,
  ...RETENTION_OPERATIONS,
  ...META_OPERATIONS,
];

const DESCRIPTION = `The Giving Connect API as this app's embedded service implements it.

- **Seed** operations are the API spec's (nonprofits, Connects, grants list, webhooks and their messages and attempts, the token exchange). **Extensions** (marked EXT) are this service's additions; the console uses them when present and degrades gracefully (404/405) against a service without them.
- Every response carries \`X-Request-Id\`. Errors are RFC 9457 problem details (\`application/problem+json\`), except the token endpoint's OAuth errors. A path no operation serves answers 404, a method an operation does not take 405 with \`Allow\` (both problem details); a path with a trailing slash or an empty segment, 308 to its normalised form.
- Lists take \`pageLimit\` (1–100, default 10) and \`pageToken\` (the previous page's \`nextPageToken\`), newest first.
- Timestamps are RFC 3339 UTC with milliseconds.`;

function buildDocument(publicUrl: string, audience: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const { path, method, operation } of OPERATIONS) {
    const item = (paths[path] ??= {});
    if (item[method]) throw new Error(`two operations for ${method.toUpperCase()} ${path}`);
    item[method] = operation;
  }
  return createDocument({
    openapi: '3.1.0',
    info: { title: 'Giving Connect API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: publicUrl }],
    tags: [
      { name: 'Auth' },
      { name: 'Nonprofits' },
      { name: 'Connects' },
      { name: 'Grants' },
      { name: 'Webhooks' },
      { name: 'Messages' },
      { name: 'Retention' },
      { name: 'Meta' },
    ],
    paths,
    webhooks: eventWebhooks(),
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: `OAuth 2.0 client credentials. The token request must name the audience \`${audience}\` (the \`audience\` parameter); send the token as \`Authorization: Bearer <token>\`.`,
          flows: {
            clientCredentials: {
              tokenUrl: `${publicUrl}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((s) => [s, s.replace(':', ' ')])),
              'x-audience': audience,
            },
          },
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: "A Connect's API key (Get Connect's `apiKey`)." },
      },
    },
  });
}

const cache = new Map<string, ReturnType<typeof buildDocument>>();

/** The document for a deployment at `publicUrl` (built once per process). */
export function openApiDocument(publicUrl: string, audience: string): ReturnType<typeof buildDocument> {
  const key = `${publicUrl} ${audience}`;
  let doc = cache.get(key);
  if (!doc) cache.set(key, (doc = buildDocument(publicUrl, audience)));
  return doc;
}
