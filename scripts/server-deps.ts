// What scripts/server.mjs needs from lib/ before Next is up — the settings (after the .env files)
// and the front door — as one module. server.mjs compiles it once per build into the build's
// folder (a plain ES module, packages left as imports) and loads that at every start: loading these
// files through tsx cost ~0.7 CPU s of each start (its loader resolves every module on a thread of
// its own), the compiled module ~0.1 s. Without esbuild it is loaded through tsx, as before.
import '../lib/load-env';

export { env } from '../lib/env';
export { MAX_BODY_BYTES, refusal } from '../lib/http/front-door';
export { hostRefusal } from '../lib/http/request-guard';
export { everyAnswer } from '../lib/http/safety-headers';
export { startTracing } from '../lib/telemetry/tracing';
export { serveInSpan } from '../lib/telemetry/spans';
