import { ConnectApiError } from './errors';
import { ENVIRONMENT_VARIABLES, environmentConfig, missingVariables, type TConnectApiConfig, type TEnvironmentName } from './environments';
import { connectApi } from './registry';

// The start's check of each environment the console talks to: one token exchange, and one line
// saying it works or which variable to fix. The app keeps serving either way (the API may come up
// later). Lines name URLs, the client id and variables: never the secret.

const OWN_SERVER_WAIT_MS = 30_000;

/** What a failed exchange says about the configuration: one sentence naming the variable to fix. */
export function explainTokenFailure(name: TEnvironmentName, config: TConnectApiConfig, err: unknown): string {
  const v = ENVIRONMENT_VARIABLES[name];
  const tokenUrl = `${config.authUrl}/oauth/token`;
  if (!(err instanceof ConnectApiError)) return `the token exchange at ${tokenUrl} failed (${(err as Error)?.message ?? err}): check ${v.authUrl}.`;
  const code = err.problem?.title;
  if (err.operation === 'configure') return `${err.problem?.detail ?? err.message}`;
  if (err.status === 0)
    return `could not reach ${tokenUrl} (${/\(([^)]+)\)/.exec(err.message)?.[1] ?? 'no answer'}): check ${v.authUrl}, or start the service.`;
  if (err.status === 401 || code === 'invalid_client')
    return `${tokenUrl} does not accept client ${config.clientId} with this secret (invalid_client): check ${v.clientId} and ${v.clientSecret}.`;
  if (err.status === 403 || code === 'access_denied')
    return `${tokenUrl} does not accept the audience ${config.audience} (access_denied): set ${v.audience} to the service's audience.`;
  if (err.status === 429)
    return `${tokenUrl} refuses client ${config.clientId} for now after failed attempts (429): check ${v.clientId} and ${v.clientSecret}.`;
  if (err.status === 404 || err.status === 405)
    return `${tokenUrl} answered ${err.status}, so it is not a token endpoint: set ${v.authUrl} to the service's auth URL.`;
  return `the token exchange at ${tokenUrl} answered ${err.status} (${err.message}): check ${v.authUrl}.`;
}

/** Resolves once `origin` answers HTTP at all, or after `ms`: this app's own API is not listening yet while it starts. */
async function untilAnswering(origin: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const answered = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** One line about environment `name`: `Console sandbox: token exchange at … works.` or what to fix. */
export async function checkEnvironment(name: TEnvironmentName, options: { ownOrigin?: string } = {}): Promise<{ ok: boolean; line: string }> {
  const label = `Console ${name}:`;
  const config = environmentConfig(name);
  if (!config) return { ok: false, line: `${label} not configured: set ${missingVariables(name).join(', ')}.` };
  if (options.ownOrigin && config.authUrl === options.ownOrigin) await untilAnswering(options.ownOrigin, OWN_SERVER_WAIT_MS);
  try {
    await connectApi(name).ensureToken();
    return { ok: true, line: `${label} token exchange at ${config.authUrl}/oauth/token works (client_id ${config.clientId}).` };
  } catch (err) {
    return { ok: false, line: `${label} ${explainTokenFailure(name, config, err)} Serving anyway; pages retry on every visit.` };
  }
}
