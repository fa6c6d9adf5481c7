import assert from 'node:assert/strict';
import type { TApp } from './app';
import { call, eventually, sleep } from './http';
import type { TReceiver } from './receiver';

// Webhook delivery, as the delivery tests drive it over the API: subscribe a receiver's endpoint,
// send a test event, wait for a message's state, read its attempts (oldest first).

export async function subscribe(a: Pick<TApp, 'baseUrl'>, t: string, ep: ReturnType<TReceiver['endpoint']>) {
  const res = await call(a, 'POST', '/v1/webhooks', { token: t, body: { url: ep.url, eventTypes: ['grant.succeeded'] } });
  assert.equal(res.status, 201, res.text);
  const secret = (await call(a, 'GET', `/v1/webhooks/${res.body.id}/secret`, { token: t })).body.key as string;
  ep.expectSecrets(secret);
  return { id: res.body.id as string, secret };
}

export const messagePath = (w: string, m: string) => `/v1/webhooks/${w}/messages/${m}`;

export async function messageWhen(a: Pick<TApp, 'baseUrl'>, t: string, w: string, m: string, status: string, ms = 20000) {
  return eventually(
    async () => {
      const r = await call(a, 'GET', messagePath(w, m), { token: t });
      return r.body.status === status && r.body;
    },
    ms,
    `message ${m} to be ${status}`,
  );
}

export async function attemptsOf(a: Pick<TApp, 'baseUrl'>, t: string, w: string, m: string) {
  const r = await call(a, 'GET', `${messagePath(w, m)}/attempts?pageLimit=100`, { token: t });
  assert.equal(r.status, 200, r.text);
  return (r.body.results as { id: string; status: string; responseStatusCode: number; timestamp: string; triggerType: string }[]).reverse();
}

export async function sendTest(a: Pick<TApp, 'baseUrl'>, t: string, w: string): Promise<string> {
  const res = await call(a, 'POST', `/v1/webhooks/${w}/test`, { token: t });
  assert.equal(res.status, 200, res.text);
  return res.body.id;
}

/**
 * Head-of-line blocking, as issue 53.3 puts it: webhook A's receiver answers each request after 3 s, with `backlog` messages
 * queued for it (made while A is paused, and all due at once on its resume, so how long making them takes on a loaded machine
 * sends none of them early); once the first of them is in flight, webhook B's message is made. Answers how many of A's messages had been
 * sent (had arrived) when B's arrived, and the most of A's in flight at once. Then A's receiver answers at once, and this waits
 * until every one of A's messages has arrived, so A's backlog holds no worker's slots after the test.
 */
export async function freshBesideSlowBacklog(a: Pick<TApp, 'baseUrl'>, t: string, receiver: TReceiver, backlog: number) {
  let inFlight = 0;
  let maxInFlight = 0;
  let drain!: () => void;
  const draining = new Promise<void>((r) => (drain = r));
  const slow = receiver.endpoint(async () => {
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await Promise.race([sleep(3000), draining]);
    inFlight--;
    return { status: 200 };
  });
  const fresh = receiver.endpoint();
  const [wa, wb] = [await subscribe(a, t, slow), await subscribe(a, t, fresh)];
  try {
    const patch = async (paused: boolean) =>
      assert.equal((await call(a, 'PATCH', `/v1/webhooks/${wa.id}`, { token: t, body: { paused } })).body.paused, paused);
    await patch(true);
    const ids: string[] = [];
    while (ids.length < backlog) ids.push(...(await Promise.all(Array.from({ length: Math.min(16, backlog - ids.length) }, () => sendTest(a, t, wa.id)))));
    await patch(false);
    await eventually(async () => slow.requests().length >= 1, 30000, "A's backlog to be in flight");
    const freshId = await sendTest(a, t, wb.id);
    await messageWhen(a, t, wb.id, freshId, 'success', 90000);
    const freshAt = fresh.requests()[0].at;
    const sentBefore = slow.requests().filter((r) => r.at <= freshAt).length;
    drain();
    await eventually(async () => new Set(slow.requests().map((r) => r.headers['webhook-id'])).size === backlog, 60000, "A's backlog to be delivered");
    return { sentBefore, maxInFlight, paths: [slow.path, fresh.path] };
  } finally {
    drain();
  }
}
