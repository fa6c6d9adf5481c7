import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConnectApiError } from '@/lib/console/connect-api/errors';
import { upstreamProblem } from '@/lib/console/upstream-problem';

// How a console route answers when the service it reads failed: what support can quote.

const failed = (status: number, problem: { title?: string; detail?: string } | null = { detail: `upstream said ${status}` }) =>
  new ConnectApiError(`call failed with ${status}`, { status, requestId: 'req_abc', problem, operation: 'listMessages' });

async function answer(err: ConnectApiError) {
  const res = upstreamProblem(err);
  assert.equal(res.headers.get('content-type'), 'application/problem+json');
  return { status: res.status, body: await res.json() };
}

test('the service’s 404 stays a 404; its 4xx client errors pass through with their status', async () => {
  assert.equal((await answer(failed(404))).status, 404);
  for (const s of [400, 409, 413, 429]) assert.equal((await answer(failed(s))).status, s, String(s));
});

test('the console’s own credentials refused (401/403), a 5xx or no answer at all: 502 Bad Gateway', async () => {
  for (const s of [401, 403, 500, 503, 0]) {
    const { status, body } = await answer(failed(s));
    assert.equal(status, 502, String(s));
    assert.equal(body.title, 'Bad Gateway');
  }
});

test('the body carries the upstream status, request id and the upstream detail', async () => {
  const { body } = await answer(failed(503));
  assert.deepEqual(body, {
    type: 'about:blank',
    title: 'Bad Gateway',
    status: 502,
    detail: 'upstream said 503',
    upstreamStatus: 503,
    upstreamRequestId: 'req_abc',
  });
});

test('without a problem detail the title, then the error message stands in', async () => {
  assert.equal((await answer(failed(500, { title: 'Server Error' }))).body.detail, 'Server Error');
  assert.equal((await answer(failed(0, null))).body.detail, 'call failed with 0');
});
