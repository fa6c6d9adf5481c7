import { randomBytes } from 'node:crypto';
import type { TApp } from '../helpers/app';
import { eventually, staffCookie, token } from '../helpers/http';

// What the page-weight bench (and its screenshots) need on the console's pages: a receiver holding
// the webhook's secret, a webhook delivering to it with three delivered test events, one receipt.

export type TSeeded = { cookie: string; webhookId: string; messageId: string; receiptId: number };

async function send<T = any>(app: TApp, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function seedConsolePages(app: TApp): Promise<TSeeded> {
  const cookie = await staffCookie(app);
  const staff = { cookie, origin: app.baseUrl };
  const auth = { authorization: `Bearer ${await token(app)}` };
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = await send(app, 'POST', '/api/receivers', staff, { name: 'Donor CRM (bench)', secret });
  const webhook = await send(app, 'POST', '/v1/webhooks', auth, { url: receiver.ingestUrl, eventTypes: ['grant.succeeded'], description: 'Donor CRM', secret });
  let messageId = '';
  for (let i = 0; i < 3; i++) messageId = (await send(app, 'POST', `/v1/webhooks/${webhook.id}/test`, auth)).id ?? messageId;
  const receiptId = await eventually(
    async () => (await send(app, 'GET', `/api/receivers/${receiver.id}/receipts`, staff)).results?.[0]?.id as number | undefined,
    20_000,
    'a receipt',
  );
  await eventually(async () => (await send(app, 'GET', `/v1/webhooks/${webhook.id}/stats`, auth)).successes >= 3, 20_000, 'three deliveries');
  return { cookie, webhookId: webhook.id, messageId, receiptId };
}
