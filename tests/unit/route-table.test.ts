import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import routeTable from '../../lib/http/route-table.json' with { type: 'json' };
import { allowOf, refusal, routeOf } from '@/lib/http/front-door';

// The route table (lib/http/route-table.json) is what the front door's 405s and the fuzz test are
// made from: it must name every route file and page with exactly the methods each serves.

const APP = path.resolve(import.meta.dirname, '../../app');
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** `app/(console)/webhooks/[id]/route.ts` → `/webhooks/:id`; catch-alls → null (they serve no route of their own). */
function urlOf(file: string): string | null {
  const dir = path.dirname(path.relative(APP, file));
  const parts = dir === '.' ? [] : dir.split(path.sep).filter((p) => !/^\(.*\)$/.test(p));
  if (parts.some((p) => p.startsWith('[...') || p.startsWith('[[...'))) return null;
  return '/' + parts.map((p) => p.replace(/^\[(.+)\]$/, ':$1')).join('/');
}

/** The methods a route file serves: the list given to otherMethods, else the handlers it exports. */
function servedMethods(source: string): string[] {
  const other = /otherMethods\(\[([^\]]*)\]\)/.exec(source);
  if (other) return [...other[1].matchAll(/'([A-Z]+)'/g)].map((m) => m[1]);
  const named = [...source.matchAll(/export const (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]);
  const aliased = [...source.matchAll(/\bas (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/g)].map((m) => m[1]);
  return [...new Set([...named, ...aliased])];
}

function files(name: string): string[] {
  return fs
    .readdirSync(APP, { recursive: true })
    .map(String)
    .filter((f) => path.basename(f) === name)
    .map((f) => path.join(APP, f));
}

const table = new Map(routeTable.routes.map((r) => [r.path, r]));

test('every route file is in the table with the methods it serves', () => {
  const seen = new Set<string>();
  for (const file of files('route.ts')) {
    const url = urlOf(file);
    if (!url) continue;
    seen.add(url);
    const entry = table.get(url);
    assert.ok(entry, `${path.relative(APP, file)} serves ${url}, which lib/http/route-table.json does not list`);
    const served = servedMethods(fs.readFileSync(file, 'utf8'));
    assert.ok(served.length > 0, `no methods found in ${file}`);
    assert.deepEqual([...entry.methods].sort(), served.sort(), `methods of ${url}`);
    assert.notEqual(entry.kind, 'page');
  }
  for (const file of files('page.tsx')) {
    const url = urlOf(file)!;
    seen.add(url);
    const entry = table.get(url);
    assert.ok(entry, `${path.relative(APP, file)} renders ${url}, which lib/http/route-table.json does not list`);
    assert.deepEqual(entry.methods, ['GET']);
    assert.equal(entry.kind, 'page');
  }
  for (const r of routeTable.routes) assert.ok(seen.has(r.path), `the table lists ${r.path}, which no route or page serves`);
});

test('routeOf prefers a static segment to a parameter; allowOf adds HEAD and OPTIONS as the routes do', () => {
  assert.equal(routeOf('/webhooks/new')?.path, '/webhooks/new');
  assert.equal(routeOf('/webhooks/ep_1')?.path, '/webhooks/:id');
  assert.equal(routeOf('/v1/webhooks/ep_1/secret/rotate')?.path, '/v1/webhooks/:id/secret/rotate');
  assert.equal(routeOf('/v1/webhooks/')?.path, '/v1/webhooks');
  assert.equal(routeOf('/nowhere/at/all'), undefined);
  assert.equal(allowOf(routeOf('/v1/webhooks/ep_1')!), 'GET, PATCH, DELETE, HEAD, OPTIONS');
  assert.equal(allowOf(routeOf('/oauth/token')!), 'POST, OPTIONS');
  assert.equal(allowOf(routeOf('/webhooks')!), 'GET, HEAD');
  for (const r of routeTable.routes) for (const m of r.methods) assert.ok(METHODS.includes(m), `${r.path}: ${m}`);
});

test('routeOf, which looks only at the routes of the first segment, answers as a match against every route would', () => {
  const patterns = routeTable.routes.map((r) => ({ r, re: new RegExp(`^${r.path.replace(/[.]/g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}/?$`) }));
  const everyRoute = (p: string) =>
    patterns.filter(({ re }) => re.test(p)).sort((a, b) => (a.r.path.match(/:/g)?.length ?? 0) - (b.r.path.match(/:/g)?.length ?? 0))[0]?.r.path;
  const paths = routeTable.routes.flatMap((r) => [r.path, r.path.replace(/:[A-Za-z]+/g, 'x1'), `${r.path.replace(/:[A-Za-z]+/g, 'new')}/`, `${r.path}/more`]);
  paths.push('/', '', '//', '/%69ngest/abc', '/ingest', '/ingest/', '/ingest/a/b', '/INGEST/abc', '/v1', '/v1/');
  for (const p of paths) assert.equal(routeOf(p)?.path, everyRoute(p), p);
});

const req = (method: string, url: string, headers: Record<string, string> = {}) => ({ method, url, headers });

test('the front door refuses what Next cannot serve, naming what is wrong', () => {
  const cases: [string, ReturnType<typeof req>, number, RegExp][] = [
    ['TRACE on an API route', req('TRACE', '/v1/webhooks'), 405, /TRACE is not allowed here/],
    ['an unknown method on a page', req('PROPFIND', '/webhooks'), 405, /PROPFIND/],
    ['an unknown method nowhere', req('BREW', '/teapot'), 404, /Nothing is served/],
    ['a malformed escape in a path id', req('GET', '/v1/webhooks/%zz'), 400, /"%zz" is not valid percent-encoded UTF-8/],
    ['a cut-off escape', req('GET', '/v1/nonprofit/12%E0%A4%A'), 400, /not valid percent-encoded UTF-8/],
    ['an escape that is not UTF-8 (a lone surrogate)', req('GET', '/v1/messages/%ED%A0%80'), 400, /not valid percent-encoded UTF-8/],
    ['a NUL in a path id', req('GET', '/v1/grants/%00'), 400, /contains a NUL byte/],
    ['a control character in a path', req('GET', '/cases/a%0Ab'), 400, /control character \(U\+000A\)/],
    ['a NUL in a query value', req('GET', '/v1/messages?eventType=%00'), 400, /query parameter "eventType" contains a NUL byte/],
    ['a malformed query escape', req('GET', '/api/search?q=%E0%A4'), 400, /query parameter "q" is not valid/],
    ['a receiver URL without a slug', req('POST', '/ingest/'), 404, /No receiver at \/ingest\/; a receiver's URL is/],
    ['a declared body over the limit', req('POST', '/v1/webhooks', { 'content-length': String(256 * 1024 + 1) }), 413, /limit is 262144/],
  ];
  for (const [name, request, status, detail] of cases) {
    const refused = refusal(request);
    assert.ok(refused, `${name}: refused`);
    assert.equal(refused.status, status, name);
    assert.equal(refused.headers['content-type'], 'application/problem+json', name);
    assert.match(refused.headers['x-request-id'], /^req_/);
    const body = JSON.parse(refused.body);
    assert.equal(body.status, status, name);
    assert.match(body.detail, detail, name);
    if (status === 405) assert.ok(refused.headers.allow, `${name}: Allow`);
    if (status === 413) assert.equal(refused.close, true, 'the unread body ends the connection');
  }
  assert.equal(refusal(req('TRACE', '/v1/webhooks'))?.headers.allow, 'GET, POST, HEAD, OPTIONS');
});

test('the front door passes on what is fine, and the receiver gets every query as sent', () => {
  for (const request of [
    req('GET', '/v1/webhooks?pageLimit=5&pageToken=abc'),
    req('GET', '/api/search?q=GC-7KQ2M9+donor%40example.org'),
    req('GET', '/cases/caf%C3%A9'),
    req('POST', '/v1/webhooks', { 'content-length': String(256 * 1024) }),
    req('POST', '/ingest/my-hook?x=%00&y=%zz', { 'content-length': String(512 * 1024) }),
    req('GET', '/_next/static/chunk.js'),
  ]) {
    assert.equal(refusal(request), null, `${request.method} ${request.url}`);
  }
});

test('a browser asking for a page gets a readable page, not JSON', () => {
  const refused = refusal(req('GET', '/webhooks/%zz', { accept: 'text/html,application/xhtml+xml' }));
  assert.ok(refused);
  assert.equal(refused.status, 400);
  assert.match(refused.headers['content-type'], /text\/html/);
  assert.match(refused.body, /<h1>400 Bad Request<\/h1>/);
  assert.match(refused.body, /&#34;%zz&#34; is not valid/, 'the detail is escaped');
});
