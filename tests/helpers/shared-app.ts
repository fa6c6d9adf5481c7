import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX, queryAppDb, startApp, type TApp } from './app';
import type { TSharedManifest, TSigningKey } from './shared-app-host';

// The suite's shared app. node:test runs every test file in a process of its own, so an app cannot
// be shared within a process: scripts/test.mjs starts a few apps for the whole run instead
// (tests/helpers/shared-app-host.ts; TEST_SHARED_APPS names their manifest) and a file that needs
// nothing special of its app — the default test settings, no restart, no kill, no reading its
// database behind its back — takes one of them here rather than starting its own (~6 CPU seconds
// each). Such a file isolates itself by its own data: its own Connects, receivers, webhooks, staff
// users (unique e-mail addresses), and accounts: each file gets an account of the app's pool that no
// other file gets, and `token(app)` (tests/helpers/http.ts) is that account's rather than the
// sandbox's, so its webhooks see its own events only; `accounts: ['other']` hands it more, under the
// names it asked for. The console reaches the service as the sandbox's client (CONNECT_CLIENT_ID):
// a file that looks at webhooks through the console makes them with the sandbox's token
// (`token(app, SANDBOX_CLIENT)`), beside other such files' webhooks — and creates no grants with it:
// every sandbox webhook subscribed to grant.succeeded would get them (readme.test.ts, whose
// walkthrough gives as the sandbox, keeps an app of its own for that). What a file counts, it counts
// within its own data: other files' requests run on the same app at the same time.
// A file that signs tokens of its own (a claim left out, another audience) does so with the app's
// signing key, `signingKey()`, rather than by reading the app's store behind its back.
// Run without scripts/test.mjs (or with TEST_SHARED_APPS=0 there), a file gets an app of its own,
// as startApp would start it; `stop()` and `destroy()` end only such an app.

type TCreds = { client_id: string; client_secret: string };

/** The sandbox client, the console's own: what the console sees is made with its token. */
export const SANDBOX_CLIENT: TCreds = { client_id: SANDBOX.clientId, client_secret: SANDBOX.clientSecret };
export type TSharedApp = Omit<TApp, 'kill' | 'restart'> & {
  clients: Record<string, TCreds>;
  /** The file's own account on a shared app: what `token(app)` signs in as (the sandbox's on an app of the file's own). */
  defaultClient?: TCreds;
  shared: boolean;
  /** The app's active signing key, private part included. */
  signingKey: () => Promise<TSigningKey>;
};

// Longer than the host may take: its first app gets 180 s to answer (app.ts), then issues its pool of accounts. At
// 180 s the first file of a CI rehearsal (at 5bd9887, load ~25 in its first minutes) gave up before the host did.
const MANIFEST_WAIT_MS = 300_000;

async function readManifest(file: string): Promise<TSharedManifest> {
  const deadline = Date.now() + MANIFEST_WAIT_MS;
  for (;;) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as TSharedManifest;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (Date.now() > deadline) throw new Error(`the shared apps were not up after ${MANIFEST_WAIT_MS / 1000} s (no ${file})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An account of `claims`' pool that no other file took: its name, or null when all are taken. */
function claimAccount(pool: string[], claims: string): string | null {
  for (const name of pool) {
    try {
      fs.mkdirSync(path.join(claims, name)); // atomic: one file gets each
      return name;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return null;
}

/** The shared app (or, outside scripts/test.mjs, an app of this file's own), with a client for each of `accounts`. */
export async function sharedApp({ accounts = [] }: { accounts?: string[] } = {}): Promise<TSharedApp> {
  const file = process.env.TEST_SHARED_APPS;
  if (!file || file === '0') {
    const own = await startApp({ accounts });
    const signingKey = async () => {
      await fetch(`${own.baseUrl}/.well-known/jwks.json`); // made on first use
      const [row] = await queryAppDb<{ kid: string; private_jwk: TSigningKey['privateJwk'] }>(
        own,
        'select kid, private_jwk from service.signing_keys where retired_at is null',
      );
      return { kid: row.kid, privateJwk: row.private_jwk };
    };
    return { ...own, shared: false, signingKey };
  }
  const manifest = await readManifest(file);
  if (!manifest.apps?.length) throw new Error(`the shared apps could not start: ${manifest.error ?? 'none listed'}`);
  const full = () => new Error(`the shared apps' accounts are all taken: raise POOL_SIZE in tests/helpers/shared-app-host.ts`);
  // The file's own account, taken from the apps' pools in turn (app 1's first, app 2's first, …):
  // whichever app it comes from is the file's, so files spread evenly over the apps.
  const longest = Math.max(...manifest.apps.map((a) => Object.keys(a.pool).length));
  let app: NonNullable<TSharedManifest['apps']>[number] | undefined;
  let own: string | null = null;
  for (let k = 0; k < longest && !own; k++) {
    for (const candidate of manifest.apps) {
      const name = Object.keys(candidate.pool)[k];
      if (name && claimAccount([name], candidate.claims)) {
        [app, own] = [candidate, name];
        break;
      }
    }
  }
  if (!app || !own) throw full();
  const clients: TSharedApp['clients'] = {};
  for (const account of accounts) {
    const name = claimAccount(Object.keys(app.pool), app.claims);
    if (!name) throw full();
    clients[account] = app.pool[name];
  }
  return {
    defaultClient: app.pool[own],
    baseUrl: app.baseUrl,
    port: app.port,
    env: app.env,
    clients,
    shared: true,
    logs: () => fs.readFileSync(app.logFile, 'utf8'),
    pid: () => app.pid,
    signingKey: async () => app.signingKey,
    // The run's: scripts/test.mjs stops it, and drops its database, when every file is done.
    stop: async () => {},
    destroy: async () => {},
  };
}
