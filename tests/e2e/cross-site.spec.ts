import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

// Cross-site request forgery from the same site: a page served from another port of the console's
// loopback address (the same site, so the browser sends the SameSite=Lax session cookie along)
// posts a form and a fetch to the console while a staff member is signed in. Both are refused with
// a 403 and nothing changes: the user whose password the form would reset still signs in with it.

let attacker: http.Server;
let attackerPage = '';
let html = '';

test.beforeAll(async () => {
  attacker = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPage = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`;
});
test.afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

test('a page on another port of the same host cannot reset a password or start a recovery with the staff session', async ({ page, app, request }) => {
  const email = `csrf-target-${Date.now()}@example.org`;
  const added = await page.request.post('/api/users', { data: { email, role: 'viewer' } });
  expect(added.status(), await added.text()).toBe(201);
  const { user, password } = await added.json();
  expect(new URL(attackerPage).port).not.toBe(String(app.port));

  html = `<!doctype html><title>prize</title><script>
    fetch(${JSON.stringify(`${app.baseUrl}/api/webhooks/wh_csrf/outage`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' });
  </script><form id="f" method="post" action="${app.baseUrl}/api/users/${user.id}/password"></form>
  <script>setTimeout(() => document.getElementById('f').submit(), 300)</script>`;
  const outage = page.waitForResponse((r) => r.url().endsWith('/api/webhooks/wh_csrf/outage'));
  const reset = page.waitForResponse((r) => r.url().endsWith(`/api/users/${user.id}/password`));
  await page.goto(attackerPage);
  const [outageRes, resetRes] = await Promise.all([outage, reset]);
  expect((await resetRes.request().allHeaders()).cookie, 'the browser sent the session along').toContain('gc_console_session=');
  expect(resetRes.status(), await resetRes.text()).toBe(403);
  expect(JSON.parse(await resetRes.text()).detail, 'the refusal names the origin').toContain(JSON.stringify(new URL(attackerPage).origin));
  expect(outageRes.status()).toBe(403);

  const signIn = await request.post(`${app.baseUrl}/api/session`, { data: { email, password } });
  expect(signIn.status(), 'the password was not reset').toBe(200);
  // The console's own pages still change things with the same session (the rest of the suite drives its forms and actions).
  await page.goto('/users');
  const own = await page.evaluate(async (id) => (await fetch(`/api/users/${id}/password`, { method: 'POST' })).status, user.id);
  expect(own).toBe(200);
});
