// Own app: a search budget of 1 ms (SEARCH_BUDGET_MS), which would cut other files' searches short.
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { startApp, type TApp } from '../helpers/app';
import { call, eventually, staffCookie, token } from '../helpers/http';
import { screenshotPages } from '../helpers/screenshots';

// Payload search within a time budget (issue 42, decision 2), against the built app with
// SEARCH_BUDGET_MS=1: no search can finish its window in 1 ms, so each answers partial with
// `searchedUntil`, and following it (the console's `until`, the API's `before`, the case page's
// "Search further back" link) finds every matching receipt and message exactly once. Nothing here
// depends on how fast the machine is: the assertions are about completeness through the
// continuations, not about time. (A normal budget answering complete: payload-search.test.ts.)
// SEARCH_SCREENSHOTS=dir takes screenshots of a partial results page.

const SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const WORD = `quokka${randomBytes(3).toString('hex')}`;
const MATCHING = 5;

let app: TApp;
let tok = '';
let cookie = '';
const matchingGrants: string[] = [];

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => call(app, method, path, { token: tok, body, headers });

type TSearch = {
  hits: { messageId: string | null; grantId: string | null; matchedIn: string[]; receipts: { id: number }[] }[];
  since: string;
  until: string;
  more: boolean;
  partial: boolean;
  searchedUntil: string | null;
};

before(
  async () => {
    app = await startApp({ env: { SEARCH_BUDGET_MS: '1' } });
    tok = await token(app);
    cookie = await staffCookie(app);
    const r = await call(app, 'POST', '/api/receivers', { body: { name: 'Budget receiver', secret: SECRET }, headers: { cookie } });
    assert.equal(r.status, 201, r.text);
    const w = await api('POST', '/v1/webhooks', { url: r.body.ingestUrl, eventTypes: ['grant.succeeded'], description: 'search budget', secret: SECRET });
    assert.equal(w.status, 201, w.text);
    const np = await api('POST', '/v1/nonprofits', { ein: `48${String(randomInt(0, 1e7)).padStart(7, '0')}`, user: { email: 'budget@example.org' } });
    assert.equal(np.status, 201, np.text);
    const created = await api('POST', `/v1/connects?nonprofit=${np.body.id}`);
    const connect = await api('GET', `/v1/connects/${created.body.id}`);
    // Matching grants between others, one after another: rows that match and rows that do not, at
    // different instants, so the slices of a 1 ms search fall between them.
    for (let i = 0; i < 2 * MATCHING; i++) {
      const g = await api(
        'POST',
        '/v1/grants',
        { amount: 1000 + i, fundId: 'fidelity-charitable', firstName: 'Ada', lastName: i % 2 ? 'Lovelace' : WORD, email: `budget${i}@example.org` },
        { 'x-service-api-key': connect.body.apiKey },
      );
      assert.equal(g.status, 201, g.text);
      if (i % 2 === 0) matchingGrants.push(g.body.id);
    }
    await eventually(
      async () => {
        const list = await api('GET', `/v1/webhooks/${w.body.id}/messages?pageLimit=20`);
        return list.body.results.length === 2 * MATCHING && list.body.results.every((m: { status: string }) => m.status === 'success');
      },
      60_000,
      'every grant delivered to the console receiver',
    );
  },
  { timeout: 120_000 },
);

after(async () => {
  await app?.destroy();
});

/** Every answer of a search and its continuations, first to last. */
async function followConsole(first: string): Promise<TSearch[]> {
  const pages: TSearch[] = [];
  let path = first;
  for (let i = 0; i < 200; i++) {
    const res = await call(app, 'GET', path, { headers: { cookie } });
    assert.equal(res.status, 200, res.text);
    pages.push(res.body);
    if (!res.body.partial) return pages;
    assert.ok(res.body.searchedUntil > res.body.since && res.body.searchedUntil < res.body.until, JSON.stringify(res.body));
    path = `/api/search?q=${encodeURIComponent(`"${WORD}"`)}&since=${encodeURIComponent(res.body.since)}&until=${encodeURIComponent(res.body.searchedUntil)}`;
  }
  assert.fail('the continuations never reached the window start');
}

describe('payload search within a 1 ms budget', () => {
  test('the console: every search is partial until the window is searched; the continuations list each receipt and message once', async () => {
    const pages = await followConsole(`/api/search?q=${encodeURIComponent(`"${WORD}"`)}`);
    assert.ok(pages.length > 2, `${pages.length} searches`);
    pages.slice(0, -1).forEach((p, i) => {
      assert.equal(p.partial, true, `search ${i + 1}`);
      assert.equal(p.more, false);
    });
    const last = pages[pages.length - 1];
    assert.equal(last.partial, false);
    assert.equal(last.searchedUntil, null);
    // Each continuation starts where the one before stopped, the window's start kept.
    for (let i = 1; i < pages.length; i++) {
      assert.equal(pages[i].until, pages[i - 1].searchedUntil);
      assert.equal(pages[i].since, pages[0].since);
    }
    const receipts = pages.flatMap((p) => p.hits.flatMap((h) => h.receipts.map((r) => r.id)));
    const messages = pages.flatMap((p) => p.hits.filter((h) => h.matchedIn.includes('message')).map((h) => h.messageId));
    assert.equal(new Set(receipts).size, receipts.length, `a receipt listed twice: ${receipts}`);
    assert.equal(new Set(messages).size, messages.length, `a message listed twice: ${messages}`);
    assert.equal(receipts.length, MATCHING);
    assert.equal(messages.length, MATCHING);
    const grants = new Set(pages.flatMap((p) => p.hits.map((h) => h.grantId)));
    assert.deepEqual([...grants].sort(), [...matchingGrants].sort());
  });

  test('the API: GET /v1/messages?payloadText answers partial with searchedUntil; before=searchedUntil goes on, each message once', async () => {
    const after = new Date(Date.now() - 86_400_000).toISOString();
    const ids: string[] = [];
    let before = '';
    let partials = 0;
    for (let i = 0; ; i++) {
      assert.ok(i < 200, 'the continuations never reached after');
      const res = await api(
        'GET',
        `/v1/messages?payloadText=${WORD}&after=${encodeURIComponent(after)}&pageLimit=25${before ? `&before=${encodeURIComponent(before)}` : ''}`,
      );
      assert.equal(res.status, 200, res.text);
      ids.push(...res.body.results.map((m: { id: string }) => m.id));
      for (const m of res.body.results) assert.ok(!res.body.searchedUntil || m.timestamp >= res.body.searchedUntil, 'a message older than searchedUntil');
      if (!res.body.partial) {
        assert.equal(res.body.searchedUntil, undefined);
        break;
      }
      partials++;
      assert.equal(res.body.nextPageToken, undefined, 'a partial page is no full page');
      before = res.body.searchedUntil;
    }
    assert.ok(partials >= 2, `${partials} partial answers`);
    assert.equal(new Set(ids).size, ids.length, `a message listed twice: ${ids}`);
    assert.equal(ids.length, MATCHING);
  });

  test('the case page says how far back it searched, and "Search further back" goes on from there to the last match', async () => {
    let path = `/cases/${encodeURIComponent(`"${WORD}"`)}`;
    const seen: string[] = [];
    const screenshots = process.env.SEARCH_SCREENSHOTS;
    if (screenshots) await screenshotPages(app, cookie, screenshots, [path]);
    for (let i = 0; ; i++) {
      assert.ok(i < 200, 'the links never reached the window start');
      const res = await fetch(`${app.baseUrl}${path}`, { headers: { cookie } });
      assert.equal(res.status, 200, path);
      const html = await res.text();
      seen.push(...[...html.matchAll(/data-message-id="(msg_[^"]+)"/g)].map((m) => m[1]));
      const anchor = /<a [^>]*data-testid="payload-search-further"[^>]*>/.exec(html)?.[0];
      const href = anchor && /href="([^"]+)"/.exec(anchor)?.[1];
      if (!html.includes('data-testid="payload-searched-back"')) {
        assert.equal(href, undefined, 'a link further back on a complete answer');
        break;
      }
      assert.match(html, /Searched back to <time dateTime="[^"]+"/);
      assert.ok(href, 'the "Search further back" link');
      path = href.replaceAll('&amp;', '&');
      assert.match(path, /^\/cases\/[^?]+\?since=[^&]+&until=[^&]+$/);
    }
    assert.ok(seen.length >= MATCHING && new Set(seen).size === MATCHING, `the pages listed ${seen.length} hits of ${new Set(seen).size} messages`);
  });
});
