// `CONSOLE_TOKEN=gcc_pat_… npm run listen -- --console <url> --receiver <slug> --forward <local url> [--from now] [--cursor-file <path>]`
// (or `--token-file <path>`, a file only its owner can read, instead of CONSOLE_TOKEN). The token is
// never taken from argv, which every user of the machine sees (`ps`): `--token` is refused.
// Follows a receiver's receipts (GET /api/receivers/{slug}/stream, Server-Sent Events) and sends each
// one, verbatim (method, headers in order, body bytes), to a URL on this machine; one line per receipt.
// It keeps a cursor (the last receipt forwarded; by default in ~/.config/giving-connect/, see
// cursorPath): started again, it first forwards what arrived while it was away, in order, then follows
// live. The cursor is written only after the local answer, so nothing is skipped; without a cursor, or
// with `--from now`, it starts at the newest receipt when it connects. A receipt whose body a donor
// erasure or retention removed is never forwarded (an empty body is not what arrived): one line says
// which and why, and the cursor moves past it. A lost console is tried again with backoff (0.5 s doubling to 5 s); Ctrl-C ends it
// (exit 0) after the forward in flight; a refused token (revoked, expired) is one line on stderr and exit 1.
// Plain Node: it imports nothing of the app, so it runs from a checkout without a build or a database.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EventSourceParserStream, type EventSourceMessage } from 'eventsource-parser/stream';

const USAGE =
  'usage: CONSOLE_TOKEN=<gcc_pat_…> npm run listen -- --console <url> --receiver <slug> --forward <http://localhost:4000/webhooks> [--from now] [--cursor-file <path>] [--token-file <path>]';
const TOKEN_WAYS = 'set CONSOLE_TOKEN in the environment, or pass --token-file <a file only you can read>';
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 5000;
/** With no byte for this long (three of the console's heartbeats), the connection is taken for dead. */
const IDLE_MS = 50_000;
const FORWARD_TIMEOUT_MS = 30_000;
// Not sent on: they describe the hop to the console, not the request (the local Host is the forward URL's).
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'te',
  'upgrade',
  'proxy-connection',
  'proxy-authorization',
  'content-length',
  'expect',
]);

type TReceiptEvent = {
  id: number;
  method: string;
  query: string;
  headers: [string, string][];
  body: string | null;
  bodyGone: boolean;
  bodyGoneReason?: 'erased' | 'purged' | null;
  bodyGoneAt?: string | null;
  messageId: string | null;
  verdict: string;
  receivedAt: string;
};
type TSseEvent = { event: string; id: string | null; data: string };
class Fatal extends Error {}

/** The personal access token: from --token-file (mode 0600 or stricter) or CONSOLE_TOKEN, never from argv. */
function readToken(tokenFile: string | undefined): string {
  if (tokenFile === undefined) {
    const fromEnv = process.env.CONSOLE_TOKEN?.trim();
    if (!fromEnv) throw new Fatal(`no token: ${TOKEN_WAYS} (make one at Tokens in the console).`);
    return fromEnv;
  }
  let text: string;
  try {
    // As ssh does with a key: a token others could read (or change) is refused, not used.
    const mode = fs.statSync(tokenFile).mode & 0o777;
    if (process.platform !== 'win32' && mode & 0o077)
      throw new Fatal(`${tokenFile} is open to other users of this machine (mode ${mode.toString(8)}): chmod 600 ${tokenFile}, then start again.`);
    text = fs.readFileSync(tokenFile, 'utf8').trim();
  } catch (err) {
    if (err instanceof Fatal) throw err;
    throw new Fatal(`cannot read --token-file ${tokenFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  if (!text) throw new Fatal(`${tokenFile} holds no token.`);
  return text;
}

function options() {
  const argv = process.argv.slice(2);
  if (argv.some((a) => a === '--token' || a.startsWith('--token=')))
    throw new Fatal(`--token on the command line is visible to every user of this machine (ps): ${TOKEN_WAYS}.`);
  const { values } = parseArgs({
    args: argv,
    options: {
      console: { type: 'string' },
      'token-file': { type: 'string' },
      receiver: { type: 'string' },
      forward: { type: 'string' },
      from: { type: 'string' },
      'cursor-file': { type: 'string' },
    },
  });
  const missing = (['console', 'receiver', 'forward'] as const).filter((k) => !values[k]);
  if (missing.length) throw new Fatal(`missing ${missing.map((m) => `--${m}`).join(', ')}\n${USAGE}`);
  if (values.from !== undefined && values.from !== 'now') throw new Fatal(`--from takes only "now" (the default is the saved cursor), not "${values.from}"`);
  const consoleUrl = new URL(values.console!);
  const forward = new URL(values.forward!);
  if (!/^https?:$/.test(consoleUrl.protocol) || !/^https?:$/.test(forward.protocol))
    throw new Fatal('--console and --forward must be http:// or https:// URLs');
  return {
    consoleUrl,
    token: readToken(values['token-file']),
    receiver: values.receiver!,
    forward,
    fromNow: values.from === 'now',
    cursorFile: values['cursor-file'] ?? cursorPath(consoleUrl, values.receiver!),
  };
}

/** ~/.config/giving-connect/listen-<console host_port>-<receiver>.json (XDG_CONFIG_HOME when set). */
function cursorPath(consoleUrl: URL, receiver: string): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]+/g, '_');
  return path.join(base, 'giving-connect', `listen-${safe(consoleUrl.host)}-${safe(receiver)}.json`);
}

function readCursor(file: string): string | null {
  try {
    const after = (JSON.parse(fs.readFileSync(file, 'utf8')) as { after?: unknown }).after;
    return typeof after === 'string' && /^\d+$/.test(after) ? after : null;
  } catch {
    return null;
  }
}

/** Written beside and renamed over, so a crash leaves the old cursor or the new one, never half of one. */
function saveCursor(file: string, after: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify({ after, savedAt: new Date().toISOString() })}\n`);
  fs.renameSync(tmp, file);
}

/** The console's text/event-stream as events (eventsource-parser); `onBytes` hears every chunk, for the idle check. */
async function* sseEvents(body: ReadableStream<Uint8Array>, onBytes: () => void): AsyncGenerator<TSseEvent> {
  const tap = new TransformStream<Uint8Array, BufferSource>({
    transform(chunk, out) {
      onBytes();
      out.enqueue(chunk as Uint8Array<ArrayBuffer>);
    },
  });
  const events = body.pipeThrough(tap).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const e of events as unknown as AsyncIterable<EventSourceMessage>) yield { event: e.event ?? 'message', id: e.id ?? null, data: e.data };
}

/** Sends one receipt to the local URL as it arrived; the answer's status (or the network error) and the time. */
function forward(target: URL, r: TReceiptEvent): Promise<{ status: number | string; ms: number }> {
  const started = performance.now();
  const body = r.body ? Buffer.from(r.body, 'base64') : Buffer.alloc(0);
  // In arrival order and spelling; a name that came more than once is sent as that many lines at
  // its first place (Node 20's http.request takes headers as an object).
  const headers: Record<string, string | string[]> = {};
  const seen = new Map<string, string>();
  for (const [name, value] of r.headers) {
    const lower = name.toLowerCase();
    if (HOP_HEADERS.has(lower)) continue;
    const key = seen.get(lower);
    if (key === undefined) {
      seen.set(lower, name);
      headers[name] = value;
    } else headers[key] = [headers[key]].flat().concat(value);
  }
  if (body.length || !['GET', 'HEAD'].includes(r.method)) headers['Content-Length'] = String(body.length);
  const url = new URL(target);
  if (r.query) url.search = url.search ? `${url.search}&${r.query.replace(/^\?/, '')}` : r.query.startsWith('?') ? r.query : `?${r.query}`;
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const req = (url.protocol === 'https:' ? https : http).request(url, { method: r.method, headers, timeout: FORWARD_TIMEOUT_MS, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: ms() }));
      res.on('error', (err) => resolve({ status: (err as NodeJS.ErrnoException).code ?? err.message, ms: ms() }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'TIMEOUT' })));
    req.on('error', (err) => resolve({ status: (err as NodeJS.ErrnoException).code ?? err.message, ms: ms() }));
    req.end(body);
  });
}

async function problemDetail(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status} ${text.slice(0, 200)}`.trim();
  }
}

async function main(): Promise<number> {
  const o = options();
  let after = o.fromNow ? null : readCursor(o.cursorFile);
  let stopping = false;
  let busy: Promise<unknown> = Promise.resolve();
  let connection: AbortController | null = null;
  const stop = () => {
    if (stopping) process.exit(0); // a second Ctrl-C does not wait
    stopping = true;
    connection?.abort();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const streamUrl = new URL(`/api/receivers/${encodeURIComponent(o.receiver)}/stream`, o.consoleUrl);
  let backoff = BACKOFF_FIRST_MS;
  console.log(
    `listen: ${o.receiver} on ${o.consoleUrl.origin} → ${o.forward.href} (cursor ${o.cursorFile}${after ? `, after receipt ${after}` : ', from now'})`,
  );

  while (!stopping) {
    connection = new AbortController();
    const url = new URL(streamUrl);
    if (after !== null) url.searchParams.set('after', after);
    let idle: NodeJS.Timeout | undefined;
    const alive = () => {
      clearTimeout(idle);
      idle = setTimeout(() => connection?.abort(), IDLE_MS);
    };
    let problem = '';
    try {
      alive();
      const res = await fetch(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${o.token}` }, signal: connection.signal });
      if ([400, 401, 403, 404, 406].includes(res.status)) throw new Fatal(`the console refused (${res.status}): ${await problemDetail(res)}`);
      if (!res.ok || !res.body) throw new Error(`HTTP ${res.status}: ${await problemDetail(res)}`);
      backoff = BACKOFF_FIRST_MS;
      for await (const e of sseEvents(res.body, alive)) {
        if (e.event === 'ready') {
          if (after === null && e.id) {
            after = e.id;
            saveCursor(o.cursorFile, after);
          }
          console.log(`listen: connected, following receipts after ${after ?? 'now'}`);
        } else if (e.event === 'receipt' && e.id) {
          const r = JSON.parse(e.data) as TReceiptEvent;
          if (r.bodyGone) {
            after = e.id;
            saveCursor(o.cursorFile, after);
            console.log(`${r.receivedAt}  #${r.id}  ${r.messageId ?? '-'}  ${r.verdict}  skipped: ${goneReason(r)}, not forwarded`);
            continue;
          }
          const done = forward(o.forward, r);
          busy = done;
          const answer = await done;
          after = e.id;
          saveCursor(o.cursorFile, after); // only now: a crash before this line sends the receipt again, never skips it
          const status = typeof answer.status === 'number' ? String(answer.status) : `error ${answer.status}`;
          console.log(`${r.receivedAt}  #${r.id}  ${r.messageId ?? '-'}  ${r.verdict}  → ${status} in ${answer.ms} ms`);
          if (stopping) break;
        } else if (e.event === 'error') {
          const err = JSON.parse(e.data) as { status: number; detail: string };
          if (err.status === 401 || err.status === 403) throw new Fatal(`the console ended the stream (${err.status}): ${err.detail}`);
          problem = err.detail;
        }
      }
      if (!stopping) problem ||= 'the console ended the stream';
    } catch (err) {
      if (err instanceof Fatal) throw err;
      if (stopping) break;
      problem = (err as Error).name === 'AbortError' ? `no heartbeat for ${IDLE_MS / 1000} s` : describe(err);
    } finally {
      clearTimeout(idle);
    }
    if (stopping) break;
    console.error(`listen: ${problem}; connecting again in ${(backoff / 1000).toFixed(1)} s`);
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
  }
  await busy;
  console.log('listen: stopped');
  return 0;
}

/** Why a receipt's body is gone, as the console's views say it. */
function goneReason(r: TReceiptEvent): string {
  const day = r.bodyGoneAt ? ` on ${r.bodyGoneAt.slice(0, 10)}` : '';
  if (r.bodyGoneReason === 'erased') return `body erased${day} (donor erasure)`;
  return `body purged${day} (retention)`;
}

function describe(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message ?? String(err);
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`listen: ${err instanceof Fatal ? err.message : describe(err)}`);
    process.exit(1);
  },
);
