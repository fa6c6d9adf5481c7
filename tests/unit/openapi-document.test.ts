import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import routeTable from '../../lib/http/route-table.json' with { type: 'json' };
import { openApiDocument } from '../../lib/service/openapi-document';
import { OpenApiDocument } from '../helpers/openapi-check';
import { examplePayload } from '@/lib/service/events/example-payloads';
import { CONTRACT_FILES, contractFiles } from '../../scripts/openapi';

// The document /openapi.json serves: a valid OpenAPI 3.1 document, one operation for every method
// of every service route (and none for a route that does not exist), and a checker that refuses
// what the document does not describe — the check every service response of the suite goes through.

const doc = JSON.parse(JSON.stringify(openApiDocument('http://127.0.0.1:3000', 'https://api.giving-connect.test')));
const SERVICE = /^\/(v1\/|oauth\/|\.well-known\/|openapi\.json$)/;

test('the document passes the OpenAPI 3.1 schema lint', async () => {
  const validator = new Validator();
  const result = await validator.validate(doc);
  assert.equal(validator.version, '3.1');
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
});

test("the committed contract (openapi/: the document and the console's types) is what the service generates now", async () => {
  const generated = await contractFiles();
  for (const key of Object.keys(CONTRACT_FILES) as (keyof typeof CONTRACT_FILES)[]) {
    const file = CONTRACT_FILES[key];
    const committed = readFileSync(path.join(import.meta.dirname, '../..', file), 'utf8').split('\n');
    const fresh = generated[key].split('\n');
    const line = Array.from({ length: Math.max(fresh.length, committed.length) }, (_, i) => i).find((i) => fresh[i] !== committed[i]);
    if (line === undefined) continue;
    assert.fail(
      `${file} differs from what the service generates (line ${line + 1}: ${JSON.stringify(committed[line] ?? null)} where the service now says ${JSON.stringify(fresh[line] ?? null)}): run \`npm run openapi\` and commit both files of openapi/`,
    );
  }
});

test('every method of every service route in lib/http/route-table.json has an operation, and no operation lacks a route', () => {
  const routes = new Set(
    routeTable.routes.filter((r) => SERVICE.test(r.path)).flatMap((r) => r.methods.map((m) => `${m.toLowerCase()} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`)),
  );
  const operations = new Set(
    Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) => Object.keys(item).map((m) => `${m} ${p}`)),
  );
  assert.deepEqual(
    [...routes].filter((r) => !operations.has(r)),
    [],
    'routes without an operation: add an op(...) to the area’s openapi.ts',
  );
  assert.deepEqual(
    [...operations].filter((o) => !routes.has(o)),
    [],
    'operations no route serves',
  );
});

test('security, paging, problems and the signed webhook are described', () => {
  const { oauth2, apiKey } = doc.components.securitySchemes;
  assert.equal(oauth2.flows.clientCredentials.tokenUrl, 'http://127.0.0.1:3000/oauth/token');
  assert.match(oauth2.description, /audience/);
  assert.deepEqual(apiKey, { type: 'apiKey', in: 'header', name: 'x-service-api-key', description: apiKey.description });
  const listGrants = doc.paths['/v1/grants'].get;
  assert.deepEqual(
    listGrants.parameters.map((p: { name: string }) => p.name),
    ['pageLimit', 'pageToken'],
  );
  assert.deepEqual(listGrants.security, [{ oauth2: ['read:grants'], apiKey: [] }]);
  assert.deepEqual(doc.paths['/v1/grants/{id}'].get.security, [{ oauth2: ['read:grants'] }, { oauth2: ['read:grants'], apiKey: [] }], 'the key is optional');
  assert.deepEqual(Object.keys(listGrants.responses).sort(), ['200', '400', '401', '403', '413', '500', '503']);
  assert.ok(listGrants.responses['401'].headers['www-authenticate'].required);
  assert.equal(listGrants.responses['400'].content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
  const event = doc.webhooks['grant.succeeded'].post;
  assert.deepEqual(
    event.parameters.map((p: { name: string }) => p.name),
    ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'svix-id', 'svix-timestamp', 'svix-signature'],
  );
  assert.equal(doc.components.schemas.Event_grant_succeeded.properties.data.$ref, '#/components/schemas/Grant');
  assert.ok(doc.components.schemas.Grant.required.includes('workflowSessionId'));
  assert.equal(doc.paths['/v1/funds'].get['x-extension'], true);
  assert.equal(doc.paths['/v1/nonprofits'].post['x-extension'], false);
});

// A grant as the API shapes it: the documented example the test event sends.
const GRANT = examplePayload('grant.succeeded') as Record<string, unknown> & { id: string };

function seen(status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, text, headers: new Headers({ 'content-type': 'application/json', 'x-request-id': 'req_1', ...headers }) };
}

test('the response check accepts what the document describes and refuses everything else', () => {
  const checker = new OpenApiDocument(doc);
  const failures = (method: string, path: string, res: ReturnType<typeof seen>) => checker.explain(method, path, res).failures;
  const problem = (status: number) => ({ type: 'about:blank', title: 'Not Found', status, detail: 'No such grant.' });

  assert.deepEqual(failures('GET', `/v1/grants/${GRANT.id}`, seen(200, GRANT)), []);
  assert.deepEqual(failures('GET', `/v1/grants/${GRANT.id}`, seen(404, problem(404), { 'content-type': 'application/problem+json' })), []);
  assert.deepEqual(failures('HEAD', `/v1/grants/${GRANT.id}`, seen(200, undefined)), []);
  assert.deepEqual(failures('GET', '/v1/webhooks//messages/', { ...seen(308, undefined), headers: new Headers({ location: '/v1/webhooks/messages' }) }), []);

  const refused: [string, string, string, ReturnType<typeof seen>, RegExp][] = [
    ['a field the schema lacks', 'GET', `/v1/grants/${GRANT.id}`, seen(200, { ...GRANT, secret: 'x' }), /must NOT have additional properties \(secret\)/],
    ['a required field missing', 'GET', `/v1/grants/${GRANT.id}`, seen(200, { ...GRANT, workflowSessionId: undefined }), /workflowSessionId/],
    ['a wrong type', 'GET', `/v1/grants/${GRANT.id}`, seen(200, { ...GRANT, amount: '150.00' }), /amount must be integer/],
    ['a timestamp that is not RFC 3339', 'GET', `/v1/grants/${GRANT.id}`, seen(200, { ...GRANT, createdAt: 'yesterday' }), /createdAt/],
    [
      'an undocumented status',
      'GET',
      `/v1/grants/${GRANT.id}`,
      seen(409, problem(409), { 'content-type': 'application/problem+json' }),
      /status 409 is not among/,
    ],
    ['an error that is not a problem', 'GET', `/v1/grants/${GRANT.id}`, seen(404, problem(404)), /content-type application\/json is not among/],
    [
      'no X-Request-Id',
      'GET',
      `/v1/grants/${GRANT.id}`,
      { ...seen(200, GRANT), headers: new Headers({ 'content-type': 'application/json' }) },
      /x-request-id is missing/,
    ],
    [
      'a 401 without WWW-Authenticate',
      'GET',
      '/v1/grants',
      seen(401, problem(401), { 'content-type': 'application/problem+json' }),
      /www-authenticate is missing/,
    ],
    ['a body on a 204', 'DELETE', '/v1/webhooks/ep_2Q3sXQ8b1dY7cN4kP0mZr9TfVhE', seen(204, { deleted: true }), /a body where the document has none/],
    ['a path the document does not have, answered 200', 'GET', '/v1/grant-stats', seen(200, {}), /in no path of the document/],
    ['a method the path does not take, answered 200', 'PUT', '/v1/grants', seen(200, {}), /not an operation/],
    [
      'a redirect elsewhere',
      'GET',
      '/v1/webhooks//messages',
      { ...seen(308, undefined), headers: new Headers({ location: '/login' }) },
      /not to \/v1\/webhooks\/messages/,
    ],
    ['a 405 without Allow', 'PUT', '/v1/grants', seen(405, problem(405), { 'content-type': 'application/problem+json' }), /without Allow/],
  ];
  for (const [what, method, path, res, why] of refused) {
    const found = failures(method, path, res);
    assert.ok(
      found.some((f) => why.test(f)),
      `${what}: expected a failure matching ${why}, got ${JSON.stringify(found)}`,
    );
  }
});
