import assert from 'node:assert/strict';
import type { TApp } from './app';
import { call, eventually } from './http';
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
